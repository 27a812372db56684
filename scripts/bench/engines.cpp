// The RigidHoist example's cable in two open physics engines, for
// scripts/bench-engines.sh: N rigid segments of a 10 m steel rope (20 mm,
// 7850 kg/m³) joined by ball joints below a fixed suspension point at 14 m,
// a 12.33 t box of 2 × 2 × 1 m on its lower end, a ground plane at 0 with
// friction 0.5 that every segment and the load collide with, gravity
// 9.81 m/s², one step of 1/60 s per call. The cable starts tilted by 0.1 rad
// so that it swings.
//
//   engines ENGINE N STEPS [LOAD_KG]
//
// ENGINE is ode-exact (ODE's dWorldStep: a direct LCP solve of the whole
// system), ode-quick (dWorldQuickStep, 20 projected Gauss–Seidel sweeps) or
// bullet-multibody (Bullet's btMultiBody: reduced coordinates, Featherstone's
// articulated-body algorithm, spherical joints). It warms up for 60 steps,
// then times STEPS steps and prints one line:
//
//   ENGINE N us_per_step MAX_GAP ENERGY_GAIN FINITE
//
// measured over as many steps again after the timed ones: MAX_GAP is the
// largest distance between a ball joint's two anchors, divided by the
// segment length (0 in reduced coordinates); ENERGY_GAIN the largest rise of
// the mechanical energy (kinetic and gravitational) above its value after
// the warm-up, over the swing's energy (that of the cable and load raised
// by the tilt); FINITE 1 if every position stayed finite and within 1 km.
// A joint gap or an energy gain of more than 1 % marks a step the engine
// does not hold.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <ode/ode.h>

#include <btBulletDynamicsCommon.h>
#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>

namespace {

// The example's cable and load (examples/rigid-cable/scenario.json).
constexpr double kLength = 10;                 // m
constexpr double kRadius = 0.01;               // m
constexpr double kDensity = 7850;              // kg/m³
constexpr double kTop = 14;                    // m, suspension height
constexpr double kLoadSize[3] = {2, 2, 1};     // m
constexpr double kGravity = 9.81;              // m/s²
constexpr double kFriction = 0.5;
constexpr double kStep = 1.0 / 60;             // s
constexpr double kTilt = 0.1;                  // rad, about x
constexpr int kWarmup = 60;

// loadMass is the load's mass, kg: the example's 12.33 t unless given.
double loadMass = 12330;

double segmentMass(int n) { return M_PI * kRadius * kRadius * kLength * kDensity / n; }

// Along the tilted cable: the point at distance s below the suspension.
void along(double s, double out[3]) {
  out[0] = 0;
  out[1] = s * std::sin(kTilt);
  out[2] = kTop - s * std::cos(kTilt);
}

struct Result {
  double usPerStep = 0, maxGap = 0, energyGain = 0;
  bool finite = true;
};

// swingEnergy is the energy the tilt gives the hanging cable and load, J:
// the scale of ENERGY_GAIN.
double swingEnergy(int n) {
  double m = segmentMass(n) * n, drop = 1 - std::cos(kTilt);
  return kGravity * drop * (m * kLength / 2 + loadMass * (kLength + kLoadSize[2] / 2));
}

bool sane(double x) { return std::isfinite(x) && std::fabs(x) < 1e3; }

// timeAndCheck warms up, times steps calls of step, then checks as many
// more with measure (which checks the joints and returns the energy):
// measuring inside the timed loop would add its cost to the engine's.
template <class Step, class Measure>
void timeAndCheck(Result &r, int n, int steps, Step step, Measure measure) {
  for (int i = 0; i < kWarmup; i++) step();
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; i++) step();
  auto t1 = std::chrono::steady_clock::now();
  r.usPerStep = std::chrono::duration<double, std::micro>(t1 - t0).count() / steps;
  double e0 = measure();
  for (int i = 0; i < steps; i++) {
    step();
    r.energyGain = std::fmax(r.energyGain, (measure() - e0) / swingEnergy(n));
  }
  r.finite = r.finite && std::isfinite(r.energyGain);
}

// ---- ODE ----------------------------------------------------------------

struct OdeScene {
  dWorldID world;
  dSpaceID space;
  dGeomID ground;
  dJointGroupID contacts;
  std::vector<dBodyID> bodies;  // segments, then the load
  std::vector<dJointID> joints; // suspension, between segments, to the load
};

void odeNear(void *data, dGeomID a, dGeomID b) {
  auto *sc = static_cast<OdeScene *>(data);
  dContact c[4];
  int n = dCollide(a, b, 4, &c[0].geom, sizeof(dContact));
  for (int i = 0; i < n; i++) {
    c[i].surface.mode = dContactApprox1;
    c[i].surface.mu = kFriction;
    dJointID j = dJointCreateContact(sc->world, sc->contacts, &c[i]);
    dJointAttach(j, dGeomGetBody(a), dGeomGetBody(b));
  }
}

// odeEnergy is the bodies' kinetic and gravitational energy, J.
double odeEnergy(const std::vector<dBodyID> &bodies) {
  double e = 0;
  for (dBodyID b : bodies) {
    dMass m;
    dBodyGetMass(b, &m);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b), *p = dBodyGetPosition(b);
    // ω in the body's frame, where I is m.I (about the centre of mass).
    dVector3 wb;
    dBodyVectorFromWorld(b, w[0], w[1], w[2], wb);
    double rot = 0;
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) rot += wb[i] * m.I[i * 4 + j] * wb[j];
    }
    e += 0.5 * m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 0.5 * rot + m.mass * kGravity * p[2];
  }
  return e;
}

Result runOde(int n, int steps, bool exact) {
  dInitODE2(0);
  OdeScene sc;
  sc.world = dWorldCreate();
  dWorldSetGravity(sc.world, 0, 0, -kGravity);
  if (!exact) dWorldSetQuickStepNumIterations(sc.world, 20);
  sc.space = dHashSpaceCreate(nullptr);
  sc.ground = dCreatePlane(nullptr, 0, 0, 1, 0); // outside the space: collided against it
  sc.contacts = dJointGroupCreate(0);
  const double l = kLength / n, m = segmentMass(n);
  dMatrix3 tilt;
  dRFromAxisAndAngle(tilt, 1, 0, 0, -kTilt);
  for (int i = 0; i < n; i++) {
    dBodyID b = dBodyCreate(sc.world);
    dMass mass;
    dMassSetCylinderTotal(&mass, m, 3, kRadius, l);
    dBodySetMass(b, &mass);
    double p[3];
    along((i + 0.5) * l, p);
    dBodySetPosition(b, p[0], p[1], p[2]);
    dBodySetRotation(b, tilt);
    dGeomID g = dCreateCylinder(sc.space, kRadius, l);
    dGeomSetBody(g, b);
    sc.bodies.push_back(b);
  }
  dBodyID load = dBodyCreate(sc.world);
  dMass mass;
  dMassSetBoxTotal(&mass, loadMass, kLoadSize[0], kLoadSize[1], kLoadSize[2]);
  dBodySetMass(load, &mass);
  double p[3];
  along(kLength + kLoadSize[2] / 2, p);
  dBodySetPosition(load, p[0], p[1], p[2]);
  dBodySetRotation(load, tilt);
  dGeomID g = dCreateBox(sc.space, kLoadSize[0], kLoadSize[1], kLoadSize[2]);
  dGeomSetBody(g, load);
  sc.bodies.push_back(load);
  for (int i = 0; i <= n; i++) {
    dJointID j = dJointCreateBall(sc.world, nullptr);
    dJointAttach(j, i == 0 ? nullptr : sc.bodies[i - 1], sc.bodies[i]);
    along(i * l, p);
    dJointSetBallAnchor(j, p[0], p[1], p[2]);
    sc.joints.push_back(j);
  }
  Result r;
  auto step = [&] {
    dSpaceCollide2(sc.ground, reinterpret_cast<dGeomID>(sc.space), &sc, odeNear);
    if (exact) {
      dWorldStep(sc.world, kStep);
    } else {
      dWorldQuickStep(sc.world, kStep);
    }
    dJointGroupEmpty(sc.contacts);
  };
  auto measure = [&]() -> double {
    for (dJointID j : sc.joints) {
      dVector3 a, b;
      dJointGetBallAnchor(j, a);
      dJointGetBallAnchor2(j, b);
      double d = std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
      r.maxGap = std::fmax(r.maxGap, d / l);
      for (int k = 0; k < 3; k++) r.finite = r.finite && sane(a[k]) && sane(b[k]);
    }
    return odeEnergy(sc.bodies);
  };
  timeAndCheck(r, n, steps, step, measure);
  dJointGroupDestroy(sc.contacts);
  dGeomDestroy(sc.ground);
  dSpaceDestroy(sc.space);
  dWorldDestroy(sc.world);
  dCloseODE();
  return r;
}

// ---- Bullet multibody ------------------------------------------------------

Result runBulletMultibody(int n, int steps) {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher(&config);
  btDbvtBroadphase broadphase;
  btMultiBodyConstraintSolver solver;
  btMultiBodyDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
  world.setGravity(btVector3(0, 0, -kGravity));

  const double l = kLength / n, m = segmentMass(n);
  const btScalar ir = m * (3 * kRadius * kRadius + l * l) / 12, ia = m * kRadius * kRadius / 2;
  // Fixed base at the suspension point; links 0…n−1 the segments, link n
  // the load.
  btMultiBody mb(n + 1, 0, btVector3(0, 0, 0), true, false);
  mb.setBasePos(btVector3(0, 0, kTop));
  mb.setLinearDamping(0);
  mb.setAngularDamping(0);
  mb.setMaxCoordinateVelocity(1e3);
  mb.setUseGyroTerm(true);
  const btQuaternion id(0, 0, 0, 1);
  for (int i = 0; i < n; i++) {
    btVector3 toPivot = i == 0 ? btVector3(0, 0, 0) : btVector3(0, 0, -l / 2);
    mb.setupSpherical(i, m, btVector3(ir, ir, ia), i - 1, id, toPivot, btVector3(0, 0, -l / 2), true);
  }
  const double lx = kLoadSize[0], ly = kLoadSize[1], lz = kLoadSize[2];
  btVector3 loadInertia(loadMass * (ly * ly + lz * lz) / 12, loadMass * (lx * lx + lz * lz) / 12,
                        loadMass * (lx * lx + ly * ly) / 12);
  mb.setupSpherical(n, loadMass, loadInertia, n - 1, id, btVector3(0, 0, -l / 2), btVector3(0, 0, -lz / 2), true);
  mb.finalizeMultiDof();
  // The tilt: link 0's joint turned about x; the others straight.
  btQuaternion q(btVector3(1, 0, 0), -kTilt);
  btScalar qpos[4] = {q.x(), q.y(), q.z(), q.w()};
  mb.setJointPosMultiDof(0, qpos);
  world.addMultiBody(&mb);

  btCylinderShapeZ segmentShape(btVector3(kRadius, kRadius, l / 2));
  btBoxShape loadShape(btVector3(lx / 2, ly / 2, lz / 2));
  std::vector<btMultiBodyLinkCollider *> colliders;
  btAlignedObjectArray<btQuaternion> wq;
  btAlignedObjectArray<btVector3> wp;
  mb.forwardKinematics(wq, wp);
  for (int i = 0; i <= n; i++) {
    auto *c = new btMultiBodyLinkCollider(&mb, i);
    c->setCollisionShape(i < n ? static_cast<btCollisionShape *>(&segmentShape) : &loadShape);
    c->setFriction(kFriction);
    // Links meet the ground only, as the ropes' segments do in RigidHoist.
    world.addCollisionObject(c, 2, 1);
    mb.getLink(i).m_collider = c;
    colliders.push_back(c);
  }
  mb.updateCollisionObjectWorldTransforms(wq, wp);

  btStaticPlaneShape groundShape(btVector3(0, 0, 1), 0);
  btRigidBody ground(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &groundShape));
  ground.setFriction(kFriction);
  world.addRigidBody(&ground, 1, 2);

  Result r;
  // maxSubSteps 0: one step of exactly kStep per call (with fixed substeps
  // a rounded kStep can make a call step none).
  auto step = [&] { world.stepSimulation(kStep, 0); };
  std::vector<btVector3> omega(n + 2), vel(n + 2);
  auto measure = [&]() -> double {
    // Velocities in each link's frame (index 0 the base), where the
    // inertia is diagonal.
    mb.compTreeLinkVelocities(omega.data(), vel.data());
    double e = 0;
    for (int i = 0; i <= n; i++) {
      const btMultibodyLink &link = mb.getLink(i);
      btVector3 p = mb.localPosToWorld(i, btVector3(0, 0, 0));
      r.finite = r.finite && sane(p.x()) && sane(p.y()) && sane(p.z());
      const btVector3 &w = omega[i + 1], &I = link.m_inertiaLocal;
      e += 0.5 * link.m_mass * vel[i + 1].length2() + 0.5 * (I.x() * w.x() * w.x() + I.y() * w.y() * w.y() + I.z() * w.z() * w.z()) +
           link.m_mass * kGravity * p.z();
    }
    return e;
  };
  timeAndCheck(r, n, steps, step, measure);
  world.removeRigidBody(&ground);
  for (auto *c : colliders) {
    world.removeCollisionObject(c);
    delete c;
  }
  world.removeMultiBody(&mb);
  return r;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: %s ode-exact|ode-quick|bullet-multibody SEGMENTS STEPS [LOAD_KG]\n", argv[0]);
    return 2;
  }
  if (argc == 5) {
    loadMass = std::atof(argv[4]);
    if (!(loadMass > 0 && loadMass < 1e9)) {
      std::fprintf(stderr, "LOAD_KG must be in (0, 1e9), got %s\n", argv[4]);
      return 2;
    }
  }
  std::string engine = argv[1];
  int n = std::atoi(argv[2]), steps = std::atoi(argv[3]);
  if (n < 1 || steps < 1) {
    std::fprintf(stderr, "SEGMENTS and STEPS must be positive, got %s and %s\n", argv[2], argv[3]);
    return 2;
  }
  Result r;
  if (engine == "ode-exact") {
    r = runOde(n, steps, true);
  } else if (engine == "ode-quick") {
    r = runOde(n, steps, false);
  } else if (engine == "bullet-multibody") {
    r = runBulletMultibody(n, steps);
  } else {
    std::fprintf(stderr, "unknown engine %s: ode-exact, ode-quick or bullet-multibody\n", engine.c_str());
    return 2;
  }
  std::printf("%s %d %.2f %.3g %.3g %d\n", engine.c_str(), n, r.usPerStep, r.maxGap, r.energyGain, r.finite ? 1 : 0);
  return 0;
}
