# Misbehaves on request, from fault_time on: mode 1 raises an exception,
# mode 2 loops forever, modes 3 to 6 try what would end the host's process
# if the plugin runtime let them run: print a list that contains itself,
# build a list of 80 GB, an integer of 330 million bits, or keep growing
# a list past the memory budget.

mode = parameter("mode", 0, unit="1", description="0: behave, 1: raise an exception, 2: loop forever, 3-6: exhaust the stack or memory", min=0, max=6)
fault_time = parameter("fault_time", 0.5, unit="s", description="When the fault starts")
calls = output("calls", unit="1", description="Step calls so far")

count = 0


def divide(a, b):
    return a / b


def step(sim):
    global count
    count += 1
    calls.value = count
    if sim.time >= fault_time.value:
        if mode.value == 1:
            divide(1.0, 0.0)
        if mode.value == 2:
            while True:
                count = count + 0
        if mode.value == 3:
            boom = []
            boom.append(boom)
            print(str(boom))
        if mode.value == 4:
            huge = [0.0] * 10**10
        if mode.value == 5:
            huge = 10 ** 10 ** 8
        if mode.value == 6:
            kept = []
            while True:
                kept.append("x" * 8000000)
