# Wind on the load: drag of the wind relative to the load, along x, from a
# wind-speed input (a gust profile, a measured record...).

wind_speed = input("speed", 0.0, unit="m/s", description="Wind speed along x")
area = parameter("area", 2.0, unit="m2", description="Load area facing the wind", min=0)
drag = parameter("drag_coefficient", 1.2, unit="1", description="Drag coefficient of the load", min=0)
air = parameter("air_density", 1.225, unit="kg/m3", description="Density of the air", min=0)
force = output("force", unit="N", description="Wind force on the load along x")


def step(sim):
    load = sim.body("load")
    relative = wind_speed.value - load.velocity[0]
    f = 0.5 * air.value * drag.value * area.value * relative * abs(relative)
    load.apply_force(f, 0.0, 0.0)
    force.value = f
