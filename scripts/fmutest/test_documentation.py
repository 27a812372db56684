"""The documentation inside every example FMU, opened in a browser.

Each FMU carries documentation/index.html with the scenario's picture
(documentation/diagram.svg and .png) and, at the root (FMI 2.0: model.png)
or under terminalsAndIcons/ (FMI 3.0: icon.png), its icon. Headless Chromium
(Debian's chromium, installed by scripts/setup.sh --test) opens each page
from the unpacked FMU: it must load with no console message (the page
reports a missing picture there), and it must list every input, output
and parameter of the model description. With DOC_SCREENSHOTS=DIR the pages' screenshots
are written there. Needs the *_FMU variables of scripts/test.sh.
"""
import os
import re
import shutil
import struct
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET
import zipfile

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FMUS = ["HOIST_FMU", "HOIST3_FMU", "RIGIDHOIST_FMU", "RIGIDHOIST3_FMU", "WIREHOIST_FMU", "WIREHOIST3_FMU",
        "WIREBEAM_FMU", "WIREBEAM3_FMU", "MASSSPRINGHOIST_FMU", "MASSSPRINGHOIST3_FMU", "SPLINEHOIST_FMU",
        "SPLINEHOIST3_FMU", "HOISTCONTROLLED_FMU", "GANTRYCRANE_FMU", "GANTRYCRANE3_FMU",
        "BOOMCRANE_FMU", "BOOMCRANE3_FMU"]


def png_size(data):
    """Width and height of a PNG, checking its signature."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise AssertionError("not a PNG")
    return struct.unpack(">II", data[16:24])


def ports(md):
    """Names of the inputs, outputs and parameters of a model description."""
    root = ET.fromstring(md)
    names = []
    for v in root.find("ModelVariables"):
        if v.get("causality") in ("input", "output", "parameter"):
            names.append(v.get("name"))
    return root.get("fmiVersion"), names


class TestDocumentation(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="documentation-test-")
        cls.shots = os.environ.get("DOC_SCREENSHOTS")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def browse(self, page, screenshot=None):
        """Opens page in headless Chromium; returns the DOM and the log."""
        profile = tempfile.mkdtemp(dir=self.tmp)
        args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                "--allow-file-access-from-files", "--window-size=1100,1600"]
        if screenshot:
            args.append("--screenshot=" + screenshot)
        else:
            args.append("--dump-dom")
        out, err = os.path.join(profile, "stdout"), os.path.join(profile, "stderr")
        with open(out, "w") as o, open(err, "w") as e:
            subprocess.run(args + ["file://" + page], stdout=o, stderr=e, timeout=120, check=False)
        with open(out) as o, open(err) as e:
            return o.read(), e.read()

    def check(self, env):
        path = os.environ.get(env, "")
        if not os.path.isfile(path):
            raise RuntimeError("set %s to the built FMU (see scripts/test.sh)" % env)
        folder = os.path.join(self.tmp, env)
        with zipfile.ZipFile(path) as z:
            z.extractall(folder)
            names = set(z.namelist())
            version, expected = ports(z.read("modelDescription.xml"))
            for f in ("documentation/index.html", "documentation/diagram.svg", "documentation/diagram.png"):
                self.assertIn(f, names, "%s has no %s" % (path, f))
            icon = "model.png" if version.startswith("2") else "terminalsAndIcons/icon.png"
            self.assertIn(icon, names, "%s has no %s" % (path, icon))
            w, h = png_size(z.read("documentation/diagram.png"))
            self.assertGreater(w * h, 100 * 100, "%s: diagram.png is %d × %d" % (path, w, h))
            png_size(z.read(icon))
            ET.fromstring(z.read("documentation/diagram.svg"))  # well-formed
        page = os.path.join(folder, "documentation", "index.html")
        dom, log = self.browse(page)
        console = [line for line in log.splitlines() if ":CONSOLE" in line]
        self.assertEqual(console, [], "%s: the browser reported:\n%s" % (path, "\n".join(console)))
        self.assertIn("<h1>", dom, "%s: the page did not render (DOM: %r)" % (path, dom[:300]))
        listed = set(re.findall(r"<code>([^<]+)</code>", dom))
        missing = [n for n in expected if n not in listed]
        self.assertEqual(missing, [], "%s: the page does not list %s" % (path, missing))
        if self.shots:
            os.makedirs(self.shots, exist_ok=True)
            stem = os.path.splitext(os.path.basename(path))[0]
            self.browse(page, os.path.abspath(os.path.join(self.shots, stem + ".png")))
            shutil.copy(os.path.join(folder, "documentation", "diagram.png"), os.path.join(self.shots, stem + "-diagram.png"))


def _add(env):
    def test(self):
        if CHROMIUM is None:
            self.fail("chromium is not installed: run scripts/setup.sh --test")
        self.check(env)
    test.__name__ = "test_" + env.lower()
    setattr(TestDocumentation, test.__name__, test)


for _env in FMUS:
    _add(_env)

if __name__ == "__main__":
    unittest.main()
