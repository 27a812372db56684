# Winch controller: lifts the load along a smooth profile and keeps the
# cable tension below a limit (overload protection). It commands the winch
# speed at every internal step; the winch brake slips at a higher limit as
# the last line of defence.

lift = parameter("lift", 5.0, unit="m", description="Height the load is lifted by", min=0)
top_speed = parameter("top_speed", 0.5, unit="m/s", description="Hoisting speed of the profile", min=0.01)
accel = parameter("acceleration", 0.4, unit="m/s2", description="Acceleration and braking of the profile", min=0.01)
start = parameter("start_time", 1.0, unit="s", description="When the lift starts")
limit = parameter("tension_limit", 12000.0, unit="N", description="Tension the controller keeps the cable below", min=1)
gain = parameter("gain", 1.5, unit="1/s", description="Feedback gain on the height error")

reference = output("reference", unit="m", description="Load height the profile asks for")
error = output("error", unit="m", description="Profile height minus load height")
overload = output("overload", unit="1", description="1 while the tension limit holds the hoisting back")

z0 = 0.0    # load height when the simulation starts, m
speed = 0.0  # hoisting speed commanded, m/s (up is positive)
filtered = 0.0  # load-cell tension, low-passed over the rope's bounce, N


def init(sim):
    global z0, filtered
    z0 = sim.body("load").position[2]
    filtered = sim.cable("cable").tension
    reference.value = z0
    sim.winch("winch").force_limit = 1.25 * limit.value


def profile(t):
    """Height above the start and speed at t seconds into the lift."""
    a, v, d = accel.value, top_speed.value, lift.value
    ramp = v / a
    if d < v * ramp:  # too short to reach top speed: triangle
        ramp = (d / a) ** 0.5
        v = a * ramp
    cruise = d / v - ramp
    if t <= 0:
        return 0.0, 0.0
    if t < ramp:
        return 0.5 * a * t * t, a * t
    if t < ramp + cruise:
        return 0.5 * v * ramp + v * (t - ramp), v
    if t < 2 * ramp + cruise:
        r = 2 * ramp + cruise - t
        return d - 0.5 * a * r * r, a * r
    return d, 0.0


def step(sim):
    global speed, filtered
    height, v_ref = profile(sim.time - start.value)
    z = sim.body("load").position[2]
    reference.value = z0 + height
    error.value = z0 + height - z
    wanted = v_ref + gain.value * error.value
    # The rope is lightly damped: a step of the hoisting acceleration a
    # sets the load bouncing, and the tension peaks at its mean plus twice
    # M a. So the controller watches the tension through a 0.25 s low-pass
    # (a load cell's filter; the bounce is at several Hz) and lets the
    # hoisting accelerate only by what keeps that peak under 98 % of the
    # limit; above it the hoisting slows down.
    tension = sim.cable("cable").tension
    filtered += (tension - filtered) * min(1.0, sim.dt / 0.25)
    mass = max(filtered, 1.0) / 9.81
    up = max(-accel.value, min(accel.value, (0.97 * limit.value - filtered) / (2 * mass)))
    overload.value = 1.0 if up < accel.value else 0.0
    # Slowing down is a step of the acceleration too: the rebound after it
    # adds M a to the tension, so it is bounded like speeding up.
    down = max(up, 0.25 * accel.value)
    slowed = speed + max(-down * sim.dt, min(up * sim.dt, wanted - speed))
    if up < 0:
        # Overload stops the hoisting; it does not lower the load.
        slowed = max(slowed, min(speed, 0.0))
    speed = slowed
    sim.winch("winch").speed = -speed
