# Misbehaves on request, from fault_time on: mode 1 raises an exception,
# mode 2 loops forever.

mode = parameter("mode", 0, unit="1", description="0: behave, 1: raise an exception, 2: loop forever", min=0, max=2)
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
