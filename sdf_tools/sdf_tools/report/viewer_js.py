"""The page's own script: builds the 3D view from the embedded data and GLB, and moves it.

Kept as a Python string so that the page needs no package data files. It
reads two inline elements, ``#report-data`` (JSON, see ``kinematics.py`` and
``page.py``) and ``#report-glb`` (base64 GLB, nodes ``s<shape index>``),
and sets ``window.sdfReportReady`` once the first frame is drawn (the tests
wait for it).
"""
from __future__ import annotations

VIEWER_JS = r"""
(function () {
'use strict';
const DATA = JSON.parse(document.getElementById('report-data').textContent);
const LAYERS = {grid: [], visual: [], collision: [], triads: [], axes: [], frames: [], com: [],
                tree: [], inertia: []};
const groups = [], base = [], visualMats = [];  // visualMats[link]: that link's materials
let renderer, scene, camera, controls, root, size = 1, dirty = true, gridCell = 0;
// Joint positions start where the file (or the caller) puts them: <initial_position>.
const q = DATA.joints.map(j => j.axes.map(a => a.initial || 0));
const times = window.sdfReportTimes = {start: performance.now()};  // read by bench/bench_report.py

function matrixOf(p) {
  const m = new THREE.Matrix4();
  m.compose(new THREE.Vector3(p[0], p[1], p[2]), new THREE.Quaternion(p[3], p[4], p[5], p[6]),
            new THREE.Vector3(1, 1, 1));
  return m;
}
function place(obj, p) {
  obj.position.set(p[0], p[1], p[2]);
  obj.quaternion.set(p[3], p[4], p[5], p[6]);
  return obj;
}
function layer(name, obj) { LAYERS[name].push(obj); obj.visible = isOn(name); return obj; }
function isOn(name) {
  const box = document.querySelector('input[data-layer="' + name + '"]');
  return box ? box.checked : true;
}
function decodeGlb() {
  const text = document.getElementById('report-glb').textContent.trim();
  const bytes = Uint8Array.from(atob(text), c => c.charCodeAt(0));
  return bytes.buffer;
}

function buildLinks() {
  DATA.links.forEach((l, i) => {
    const g = new THREE.Group();
    g.matrixAutoUpdate = false;
    base[i] = l.world ? matrixOf(l.world) : new THREE.Matrix4();
    g.matrix.copy(base[i]);
    g.visible = !!l.world;
    root.add(g);
    groups[i] = g;
    visualMats[i] = [];
  });
}

function sceneSize() {
  // What the camera frames: the links that carry geometry, with it -- never <frame>s,
  // lights, a ground plane or a sensor link 333 m away, which may lie far off. A model
  // without any geometry is framed by its link and joint origins.
  const box = new THREE.Box3();
  root.updateMatrixWorld(true);
  LAYERS.visual.concat(LAYERS.collision).forEach(o => {
    if (!o.userData.plane) box.expandByObject(o);
  });
  const bare = box.isEmpty();
  groups.forEach(g => {
    if (g.visible && (bare || g.userData.drawn)) {
      box.expandByPoint(new THREE.Vector3().setFromMatrixPosition(g.matrixWorld));
    }
  });
  DATA.joints.forEach(j => {
    if (bare && j.origin) box.expandByPoint(new THREE.Vector3(...j.origin).applyMatrix4(root.matrixWorld));
  });
  if (box.isEmpty()) {  // nothing placed (every pose unresolved): a 1 m view of the origin
    box.expandByPoint(new THREE.Vector3(-0.5, -0.5, -0.5));
    box.expandByPoint(new THREE.Vector3(0.5, 0.5, 0.5));
  }
  // A model without geometry whose links sit at one point: its inertia boxes give a size.
  if (box.getSize(new THREE.Vector3()).length() < 1e-6) {
    DATA.links.forEach((l, i) => {
      if (!l.inertial || !l.inertial.box || !l.world) return;
      const r = Math.max(...l.inertial.box.size) / 2;
      const c = new THREE.Vector3().setFromMatrixPosition(groups[i].matrixWorld);
      box.expandByPoint(c.clone().addScalar(r)); box.expandByPoint(c.clone().addScalar(-r));
    });
  }
  return box;
}

function niceStep(x) {
  // 1, 2 or 5 times a power of ten, the nearest at or above x.
  const p = Math.pow(10, Math.floor(Math.log10(x)));
  return [1, 2, 5, 10].map(k => k * p).find(v => v >= x * 0.999) || 10 * p;
}

function addGround() {
  // RViz's and MeshCat's ground: a grid in the world's z = 0 plane under the model, with
  // cells of a round size (1, 2 or 5 x 10^n m) about a tenth of the model, and the world
  // frame's axes at the origin.
  const box = sceneSize(), c = box.getCenter(new THREE.Vector3());
  const extent = Math.max(size, 0.05);
  gridCell = niceStep(extent / 10);
  const half = Math.ceil(0.75 * extent / gridCell + 1) * gridCell;
  const divisions = Math.round(2 * half / gridCell);
  const grid = new THREE.GridHelper(2 * half, divisions, 0x8a96a3, 0xc3ccd5);
  // three.js is Y up: the grid's plane is (x, -z) of our root, i.e. the world's xy plane.
  // It lies at z = 0, the ground, unless the model floats (or sinks) further from it than
  // its own size: then under the model's lowest point, or it would be out of sight.
  const far = box.min.y > extent || box.max.y < -extent;
  const z = far ? Math.floor(box.min.y / gridCell) * gridCell : 0;
  grid.position.set(Math.round(c.x / gridCell) * gridCell, z, Math.round(c.z / gridCell) * gridCell);
  scene.add(layer('grid', grid));
  const world = triad(Math.max(gridCell, 0.12 * extent), 0.025);
  world.userData.world = true;
  root.add(layer('grid', world));
  const label = document.getElementById('scale');
  if (label) {
    label.textContent = 'grid: ' + Number(gridCell.toPrecision(1)) + ' m cells'
      + (z ? ', at z = ' + Number(z.toPrecision(6)) + ' m' : '');
  }
}

let ROD = null, TRIAD_MATS = null;  // made on first use: a page without a view has no three.js
function rod() {
  if (!ROD) ROD = new THREE.CylinderGeometry(1, 1, 1, 8);
  return ROD;
}
function triad(length, thickness) {
  // Axes x, y, z as red, green and blue rods: unlike lines, they show at any size.
  TRIAD_MATS = TRIAD_MATS || [0xd03030, 0x30a030, 0x3050d0].map(c => new THREE.MeshBasicMaterial({color: c}));
  const g = new THREE.Group(), r = Math.max(thickness * length, 1e-6);
  [[0, 0, -Math.PI / 2], [0, 0, 0], [Math.PI / 2, 0, 0]].forEach((rot, k) => {
    const axis = new THREE.Mesh(rod(), TRIAD_MATS[k]);
    axis.scale.set(r, length, r);
    axis.rotation.set(rot[0], rot[1], rot[2]);
    const dir = [[1, 0, 0], [0, 1, 0], [0, 0, 1]][k];
    axis.position.set(dir[0] * length / 2, dir[1] * length / 2, dir[2] * length / 2);
    g.add(axis);
  });
  return g;
}

function linkUnit() {
  // Markers are sized by a typical link (the median link's size), not by the
  // whole scene: a world of many small robots keeps small markers.
  const sizes = [];
  groups.forEach(g => {
    const box = new THREE.Box3().setFromObject(g);
    if (!box.isEmpty()) sizes.push(box.getSize(new THREE.Vector3()).length());
  });
  sizes.sort((a, b) => a - b);
  // Without any geometry the markers are all there is to see: twice as large.
  if (!sizes.length) return size / 4;
  const median = sizes[Math.floor(sizes.length / 2)];
  return Math.max(Math.min(median, size / 8), size / 200);
}

function addMarkers() {
  const s = linkUnit(), masses = DATA.links.map(l => (l.inertial ? Math.abs(l.inertial.mass) : 0));
  const mmax = Math.max(1e-9, ...masses);
  const comMat = new THREE.MeshStandardMaterial({color: 0x222222});
  const ball = new THREE.SphereGeometry(1, 16, 12);  // one geometry, scaled per link
  const boxMat = new THREE.MeshBasicMaterial({color: 0x7b3fbf, transparent: true, opacity: 0.18,
                                              depthWrite: false});
  const edgeMat = new THREE.LineBasicMaterial({color: 0x7b3fbf});
  DATA.links.forEach((l, i) => {
    const g = groups[i];
    const t = triad(0.5 * s, 0.04);
    t.userData.link = i;
    g.add(layer('triads', t));
    const inl = l.inertial;
    if (!inl) return;
    const r = 0.15 * s * Math.cbrt(Math.max(masses[i], 0) / mmax) + 0.015 * s;
    const com = place(new THREE.Mesh(ball, comMat), inl.com);
    com.scale.setScalar(r);
    g.add(layer('com', com));
    if (inl.box) {
      const geo = new THREE.BoxGeometry(inl.box.size[0], inl.box.size[1], inl.box.size[2]);
      const obj = new THREE.Mesh(geo, boxMat);
      obj.add(new THREE.LineSegments(new THREE.EdgesGeometry(geo), edgeMat));
      g.add(layer('inertia', place(obj, inl.box.pose)));
    }
  });
  DATA.joints.forEach(j => {
    if (j.child < 0 || !j.local || !DATA.links[j.child].world) return;
    const w = DATA.links[j.child].world, inv = new THREE.Quaternion(w[3], w[4], w[5], w[6]).invert();
    j.axes.forEach((a, d) => {
      const dir = new THREE.Vector3(a.xyz[0], a.xyz[1], a.xyz[2]).applyQuaternion(inv);
      if (dir.lengthSq() === 0) return;
      const arrow = new THREE.ArrowHelper(dir, new THREE.Vector3(j.local[0], j.local[1], j.local[2]),
                                         0.7 * s, d ? 0x00a0a0 : 0xe0a000, 0.18 * s, 0.09 * s);
      groups[j.child].add(layer('axes', arrow));
    });
  });
  DATA.frames.forEach(f => {
    const obj = place(new THREE.AxesHelper(0.35 * s), f.local);
    (f.link >= 0 ? groups[f.link] : root).add(layer('frames', obj));
  });
  addTree(s);
}

function addTree(s) {
  // The kinematic tree as rods between joint origins: from where a link hangs (its parent
  // joint's origin, or its own origin at a root) to the origin of each joint it carries,
  // and on to the child link's origin. Each rod lies in the link that carries both its
  // ends, so it moves with the sliders; a ball marks each joint.
  const mat = new THREE.MeshBasicMaterial({color: 0x4a5866});
  const ball = new THREE.SphereGeometry(1, 12, 8), r = 0.025 * s;
  const origin = k => new THREE.Vector3(...DATA.joints[k].origin);
  const linkAt = i => new THREE.Vector3(...DATA.links[i].world.slice(0, 3));
  const hangs = {};
  DATA.joints.forEach((j, k) => { if (j.child >= 0 && j.origin) hangs[j.child] = k; });
  const bar = (link, a, b) => {
    const inv = base[link].clone().invert();
    const p = a.clone().applyMatrix4(inv), e = b.clone().applyMatrix4(inv);
    const len = p.distanceTo(e);
    if (len < 1e-9) return;
    const m = new THREE.Mesh(rod(), mat);
    m.scale.set(r, len, r);
    m.position.copy(p).add(e).multiplyScalar(0.5);
    m.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), e.clone().sub(p).normalize());
    m.userData.link = link;
    groups[link].add(layer('tree', m));
  };
  DATA.joints.forEach((j, k) => {
    if (!j.origin || j.child < 0 || !DATA.links[j.child].world) return;
    const o = origin(k);
    const knob = new THREE.Mesh(ball, mat);
    knob.scale.setScalar(2 * r);
    knob.position.copy(o.clone().applyMatrix4(base[j.child].clone().invert()));
    knob.userData.link = j.child;
    groups[j.child].add(layer('tree', knob));
    bar(j.child, o, linkAt(j.child));
    if (j.parent < 0 || !DATA.links[j.parent].world) return;
    const from = hangs[j.parent] !== undefined ? origin(hangs[j.parent]) : linkAt(j.parent);
    bar(j.parent, from, o);
  });
}

function motion(j, qs) {
  const m = new THREE.Matrix4();
  if (!j.origin || j.child < 0 || !j.axes.length) return m;  // a joint without <axis> moves nothing
  const p = new THREE.Vector3(j.origin[0], j.origin[1], j.origin[2]);
  const axis = k => new THREE.Vector3(j.axes[k].xyz[0], j.axes[k].xyz[1], j.axes[k].xyz[2]);
  if (j.type === 'prismatic') {
    const t = axis(0).multiplyScalar(qs[0]);
    return m.makeTranslation(t.x, t.y, t.z);
  }
  m.makeTranslation(p.x, p.y, p.z);
  j.axes.forEach((a, k) => {
    if (k < j.dofs && axis(k).lengthSq() > 0) {
      m.multiply(new THREE.Matrix4().makeRotationAxis(axis(k), qs[k]));
    }
  });
  return m.multiply(new THREE.Matrix4().makeTranslation(-p.x, -p.y, -p.z));
}

function updatePose() {
  // Followers first (twice: a follower may follow a follower), then the tree.
  for (let pass = 0; pass < 2; pass++) {
    DATA.joints.forEach((j, k) => {
      if (j.mimic) q[k][0] = j.mimic.multiplier * q[j.mimic.joint][0] + j.mimic.offset;
    });
  }
  const A = groups.map(() => new THREE.Matrix4());
  DATA.order.forEach(k => {
    const j = DATA.joints[k];
    const parent = j.parent >= 0 ? A[j.parent] : new THREE.Matrix4();
    A[j.child] = parent.clone().multiply(motion(j, q[k]));
  });
  groups.forEach((g, i) => { g.matrix.multiplyMatrices(A[i], base[i]); g.matrixWorldNeedsUpdate = true; });
  dirty = true;
}

function shown(j, v) {
  // The value in the joint's unit: metres for a prismatic joint, radians (and degrees) else.
  return j.unit === 'm' ? v.toFixed(4) + ' m' : v.toFixed(3) + ' rad';
}
function setJoint(k, d, value) {
  q[k][d] = value;
  const input = document.querySelector('#sliders input[data-joint="' + k + '"][data-dof="' + d + '"]');
  if (input) { input.value = value; input.nextSibling.textContent = shown(DATA.joints[k], value); }
  updatePose();
}

function sliderRange(j, a) {
  // The limits; a continuous joint, or one without limits, turns once round (+-pi); a
  // prismatic one without limits slides over the model's size. The start is always inside.
  let lo, hi;
  if (a.lower !== null && a.upper !== null) [lo, hi] = [a.lower, a.upper];
  else [lo, hi] = j.unit === 'm' ? [-0.5 * size, 0.5 * size] : [-Math.PI, Math.PI];
  const start = a.initial || 0;
  return [Math.min(lo, start), Math.max(hi, start)];
}
function buildSliders() {
  const box = document.getElementById('sliders');
  DATA.joints.forEach((j, k) => {
    if (!j.dofs || j.child < 0 || !j.origin || j.mimic) return;
    j.axes.slice(0, j.dofs).forEach((a, d) => {
      if (a.xyz.every(v => v === 0)) return;
      const [lo, hi] = sliderRange(j, a);
      const row = document.createElement('label');
      row.className = 'slider';
      const input = document.createElement('input');
      // step 'any': the slider holds the initial position exactly, not the nearest step.
      Object.assign(input, {type: 'range', min: lo, max: hi, step: 'any'});
      input.dataset.joint = k; input.dataset.dof = d;
      input.disabled = !(hi > lo);  // locked by its limits (lower = upper): shown, not moved
      input.dataset.initial = a.initial || 0;
      input.value = a.initial || 0;
      q[k][d] = a.initial || 0;
      const name = document.createElement('span');
      name.textContent = j.name + (j.dofs > 1 ? ' [' + (d + 1) + ']' : '');
      name.title = j.name + ' (' + j.type + '): ' + shown(j, lo) + ' to ' + shown(j, hi);
      const val = document.createElement('output');
      val.textContent = shown(j, q[k][d]);
      input.addEventListener('input', () => {
        q[k][d] = Number(input.value); val.textContent = shown(j, q[k][d]); updatePose();
      });
      row.append(name, input, val);
      box.append(row);
    });
  });
  if (!box.children.length) box.textContent = 'No moving joints.';
}

function highlight(i) {
  const label = document.getElementById('picked');
  if (label) label.textContent = DATA.links[i] ? DATA.links[i].name : '';
  visualMats.forEach((mats, k) => mats.forEach(m => m.emissive.setHex(k === i ? 0xd04000 : 0x000000)));
  document.querySelectorAll('.sel').forEach(e => e.classList.remove('sel'));
  document.querySelectorAll('[data-link="' + i + '"]').forEach(e => e.classList.add('sel'));
  dirty = true;
}

function visualMaterial(s) {
  const c = s.color || [0.67, 0.71, 0.75, 1];
  const m = new THREE.MeshStandardMaterial({color: new THREE.Color(c[0], c[1], c[2]), flatShading: true,
                                            metalness: 0.1, roughness: 0.75, side: THREE.DoubleSide,
                                            transparent: c[3] < 1, opacity: c[3]});
  visualMats[s.link].push(m);
  return m;
}

function attachGeometry(gltf) {
  DATA.shapes.forEach(s => {
    const obj = gltf.scene.getObjectByName(s.node);
    if (!obj) { console.warn('shape node missing', s.node); return; }
    const mat = s.kind === 'visual' ? visualMaterial(s)
      : new THREE.MeshBasicMaterial({color: 0xff7a00, transparent: true, opacity: 0.35, depthWrite: false});
    obj.traverse(o => { if (o.isMesh) o.material = mat; });
    obj.userData.plane = s.plane;
    obj.userData.link = s.link;
    if (!s.plane) groups[s.link].userData.drawn = true;  // framed by the camera (sceneSize)
    groups[s.link].add(layer(s.kind, obj));
  });
}

function pick(x, y) {
  // Click (not drag) in the view: highlight the link whose geometry is under the pointer.
  const rect = renderer.domElement.getBoundingClientRect();
  const p = new THREE.Vector2((x - rect.left) / rect.width * 2 - 1, -(y - rect.top) / rect.height * 2 + 1);
  const ray = new THREE.Raycaster();
  ray.setFromCamera(p, camera);
  const hit = ray.intersectObjects(pickable().filter(o => o.visible), true)
    .find(h => h.object.visible);
  let o = hit ? hit.object : null;
  while (o && o.userData.link === undefined) o = o.parent;
  return o ? o.userData.link : -1;
}
function pickable() {
  return LAYERS.visual.concat(LAYERS.collision, LAYERS.triads, LAYERS.tree);
}

function hover(e) {
  // The name of the link under the pointer, beside it (a model without geometry reads too).
  const tip = document.getElementById('hover');
  const i = pick(e.clientX, e.clientY);
  if (!tip) return;
  if (i < 0) { tip.style.display = 'none'; return; }
  const rect = renderer.domElement.getBoundingClientRect();
  tip.textContent = DATA.links[i].name;
  tip.style.display = 'block';
  tip.style.left = (e.clientX - rect.left + 14) + 'px';
  tip.style.top = (e.clientY - rect.top + 10) + 'px';
}

function screenOf(i) {
  // Where link i's origin is drawn, in client pixels (the tests click there).
  const v = new THREE.Vector3().setFromMatrixPosition(groups[i].matrixWorld).project(camera);
  const rect = renderer.domElement.getBoundingClientRect();
  return {x: rect.left + (v.x + 1) / 2 * rect.width, y: rect.top + (1 - v.y) / 2 * rect.height};
}

function fitCamera() {
  const box = sceneSize(), c = box.getCenter(new THREE.Vector3());
  size = Math.max(box.getSize(new THREE.Vector3()).length(), 0.05);
  camera.near = size / 1000; camera.far = size * 100;
  camera.position.copy(c).add(new THREE.Vector3(0.9, 0.55, 1.1).normalize().multiplyScalar(size * 1.45));
  camera.lookAt(c);
  camera.updateProjectionMatrix();
  controls.target.copy(c);
}

function resize() {
  const el = document.getElementById('view');
  renderer.setSize(el.clientWidth, el.clientHeight);
  camera.aspect = el.clientWidth / Math.max(1, el.clientHeight);
  camera.updateProjectionMatrix();
  controls.handleResize();
  dirty = true;
}

function animate() {
  requestAnimationFrame(animate);
  controls.update();
  if (!dirty) return;
  dirty = false;
  renderer.render(scene, camera);
  if (!times.frame) times.frame = performance.now();
  window.sdfReportReady = true;
}

function start(gltf) {
  times.glb = performance.now();
  if (gltf) attachGeometry(gltf);
  if (!LAYERS.visual.length && LAYERS.collision.length) {
    // Only collision geometry: show it, or the model would be invisible at first sight.
    const b = document.querySelector('input[data-layer="collision"]');
    if (b) b.checked = true;
    LAYERS.collision.forEach(o => { o.visible = true; });
  }
  const box = sceneSize();
  size = Math.max(box.getSize(new THREE.Vector3()).length(), 0.05);
  addGround();
  addMarkers();
  times.markers = performance.now();
  buildSliders();
  times.sliders = performance.now();
  updatePose();
  fitCamera();
  resize();
  window.sdfReport = {groups: groups, size: size, highlight: highlight, setJoint: setJoint,
                      screenOf: screenOf, q: q, gridCell: gridCell, pick: pick,
                      layer: (name, on) => { LAYERS[name].forEach(o => { o.visible = on; }); dirty = true; },
                      links: DATA.links.map(l => l.name), joints: DATA.joints.map(j => j.name)};
  animate();
}

function filter(text) {
  // Show only the links and joints whose names hold ``text`` (tables, sliders); dim the tree.
  const t = text.trim().toLowerCase();
  const keep = name => !t || name.toLowerCase().includes(t);
  document.querySelectorAll('table.data tbody tr').forEach(r => {
    r.style.display = keep(r.cells[0] ? r.cells[0].textContent : '') ? '' : 'none';
  });
  document.querySelectorAll('#sliders .slider').forEach(r => {
    r.style.display = keep(r.firstChild.textContent) ? '' : 'none';
  });
  document.querySelectorAll('.tree .node').forEach(n => {
    n.style.opacity = keep(n.textContent) ? '' : '0.25';
  });
}

function init() {
  const el = document.getElementById('view');
  const box = document.getElementById('filter');
  if (box) box.addEventListener('input', () => filter(box.value));
  document.addEventListener('click', e => {
    const t = e.target.closest('[data-link]');
    if (t && !t.matches('input')) highlight(Number(t.dataset.link));
  });
  if (!el) { window.sdfReportReady = true; return; }
  document.querySelectorAll('input[data-layer]').forEach(b => b.addEventListener('change', () => {
    LAYERS[b.dataset.layer].forEach(o => { o.visible = b.checked; }); dirty = true;
  }));
  renderer = new THREE.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
  renderer.setPixelRatio(window.devicePixelRatio);
  el.appendChild(renderer.domElement);
  scene = new THREE.Scene();
  scene.background = new THREE.Color(0xf3f5f7);
  root = new THREE.Group();
  root.rotation.x = -Math.PI / 2;  // SDFormat is Z up, three.js Y up
  scene.add(root);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 0.9));
  camera = new THREE.PerspectiveCamera(45, 1, 0.001, 1000);
  const light = new THREE.DirectionalLight(0xffffff, 0.8);
  camera.add(light);
  scene.add(camera);
  controls = new THREE.TrackballControls(camera, renderer.domElement);
  controls.rotateSpeed = 2.5;
  controls.addEventListener('change', () => { dirty = true; });
  let down = null;
  renderer.domElement.addEventListener('pointerdown', e => { down = [e.clientX, e.clientY]; });
  renderer.domElement.addEventListener('pointerup', e => {
    if (down && Math.hypot(e.clientX - down[0], e.clientY - down[1]) < 4) {
      const i = pick(e.clientX, e.clientY);
      if (i >= 0) highlight(i);
    }
    down = null;
  });
  let pending = null;
  renderer.domElement.addEventListener('pointermove', e => {
    if (e.buttons) return;
    if (!pending) requestAnimationFrame(() => { hover(pending); pending = null; });
    pending = e;
  });
  window.addEventListener('resize', resize);
  document.getElementById('reset').addEventListener('click', () => {
    document.querySelectorAll('#sliders input').forEach(i => {
      i.value = Number(i.dataset.initial);
      i.dispatchEvent(new Event('input'));
    });
    fitCamera(); dirty = true;
  });
  buildLinks();
  if (!DATA.shapes.length) { start(null); return; }
  new THREE.GLTFLoader().parse(decodeGlb(), '', start,
                                e => { console.error('GLB not readable:', e); start(null); });
}
init();
})();
"""
