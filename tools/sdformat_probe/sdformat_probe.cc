// sdformat_probe: load one SDFormat/URDF file with libsdformat 12 and print
// what libsdformat resolved as a single JSON object on stdout.
//
// The schema is the one printed by `sdf_tools inspect --json`, so the two can
// be compared field by field (see sdf_tools/test/support/libsdformat.py).
//
// Usage: sdformat_probe [--ign-check] FILE
//
// Exit status: 0 when the JSON was printed (whatever the verdict), 2 on usage
// errors. libsdformat's own diagnostics go to stderr.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include <sdf/sdf.hh>

// The same source builds against libsdformat 12 (ignition::math 6) and 14-16
// (gz::math 7-9), so the newer releases can judge the Harmonic, Ionic and
// Jetty targets (test/differential/MISMATCHES.md).
#if SDF_MAJOR_VERSION >= 14
#include <gz/math/Pose3.hh>
#include <gz/math/Quaternion.hh>
#include <gz/math/Vector2.hh>
#include <gz/math/Vector3.hh>
namespace gzm = gz::math;
#define PROBE_PARENT_NAME ParentName
#define PROBE_CHILD_NAME ChildName
#define PROBE_CHECK_JOINT_NAMES checkJointParentChildNames
#else
#include <ignition/math/Pose3.hh>
#include <ignition/math/Quaternion.hh>
#include <ignition/math/Vector3.hh>
namespace gzm = ignition::math;
// Renamed in 13 (joints may name frames); the 12 names are gone in 16.
#define PROBE_PARENT_NAME ParentLinkName
#define PROBE_CHILD_NAME ChildLinkName
#define PROBE_CHECK_JOINT_NAMES checkJointParentChildLinkNames
#endif

namespace
{
using Pose = gzm::Pose3d;
using Vec3 = gzm::Vector3d;

// ---------------------------------------------------------------------------
// Minimal JSON writer. Values are appended to `out`; the caller is
// responsible for commas through the `Sep` helper.
class Json
{
  public: std::string out;

  public: void Raw(const std::string &_s) { this->out += _s; }

  public: void Str(const std::string &_s)
  {
    this->out += '"';
    for (unsigned char c : _s)
    {
      switch (c)
      {
        case '"': this->out += "\\\""; break;
        case '\\': this->out += "\\\\"; break;
        case '\n': this->out += "\\n"; break;
        case '\r': this->out += "\\r"; break;
        case '\t': this->out += "\\t"; break;
        case '\b': this->out += "\\b"; break;
        case '\f': this->out += "\\f"; break;
        default:
          if (c < 0x20)
          {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            this->out += buf;
          }
          else
          {
            this->out += static_cast<char>(c);
          }
      }
    }
    this->out += '"';
  }

  /// Doubles use %.17g (round-trip exact). Non-finite values use the tokens
  /// Python's json module reads and writes by default.
  public: void Num(double _v)
  {
    if (std::isnan(_v))
    {
      this->out += "NaN";
      return;
    }
    if (std::isinf(_v))
    {
      this->out += _v > 0 ? "Infinity" : "-Infinity";
      return;
    }
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%.17g", _v);
    this->out += buf;
  }

  public: void Int(uint64_t _v) { this->out += std::to_string(_v); }
  public: void Bool(bool _v) { this->out += _v ? "true" : "false"; }
  public: void Null() { this->out += "null"; }

  public: void OptStr(const std::optional<std::string> &_s)
  {
    if (_s) this->Str(*_s); else this->Null();
  }

  public: void Vec(const std::vector<double> &_v)
  {
    this->out += '[';
    for (size_t i = 0; i < _v.size(); ++i)
    {
      if (i) this->out += ", ";
      this->Num(_v[i]);
    }
    this->out += ']';
  }

  public: void Key(const std::string &_k)
  {
    this->Str(_k);
    this->out += ": ";
  }
};

/// Writes separators between members of one JSON object or array.
class Sep
{
  public: explicit Sep(Json &_j) : j(_j) {}
  public: void operator()()
  {
    if (!this->first) this->j.out += ", ";
    this->first = false;
  }
  private: Json &j;
  private: bool first = true;
};

// ---------------------------------------------------------------------------
const char *ErrorCodeName(sdf::ErrorCode _code)
{
  switch (_code)
  {
    case sdf::ErrorCode::NONE: return "NONE";
    case sdf::ErrorCode::FILE_READ: return "FILE_READ";
    case sdf::ErrorCode::DUPLICATE_NAME: return "DUPLICATE_NAME";
    case sdf::ErrorCode::RESERVED_NAME: return "RESERVED_NAME";
    case sdf::ErrorCode::ATTRIBUTE_MISSING: return "ATTRIBUTE_MISSING";
    case sdf::ErrorCode::ATTRIBUTE_INVALID: return "ATTRIBUTE_INVALID";
    case sdf::ErrorCode::ATTRIBUTE_DEPRECATED: return "ATTRIBUTE_DEPRECATED";
    case sdf::ErrorCode::ATTRIBUTE_INCORRECT_TYPE:
      return "ATTRIBUTE_INCORRECT_TYPE";
    case sdf::ErrorCode::ELEMENT_MISSING: return "ELEMENT_MISSING";
    case sdf::ErrorCode::ELEMENT_INVALID: return "ELEMENT_INVALID";
    case sdf::ErrorCode::ELEMENT_DEPRECATED: return "ELEMENT_DEPRECATED";
    case sdf::ErrorCode::ELEMENT_INCORRECT_TYPE:
      return "ELEMENT_INCORRECT_TYPE";
    case sdf::ErrorCode::URI_INVALID: return "URI_INVALID";
    case sdf::ErrorCode::URI_LOOKUP: return "URI_LOOKUP";
    case sdf::ErrorCode::DIRECTORY_NONEXISTANT: return "DIRECTORY_NONEXISTANT";
    case sdf::ErrorCode::MODEL_CANONICAL_LINK_INVALID:
      return "MODEL_CANONICAL_LINK_INVALID";
    case sdf::ErrorCode::MODEL_WITHOUT_LINK: return "MODEL_WITHOUT_LINK";
    case sdf::ErrorCode::NESTED_MODELS_UNSUPPORTED:
      return "NESTED_MODELS_UNSUPPORTED";
    case sdf::ErrorCode::LINK_INERTIA_INVALID: return "LINK_INERTIA_INVALID";
    case sdf::ErrorCode::JOINT_CHILD_LINK_INVALID:
      return "JOINT_CHILD_LINK_INVALID";
    case sdf::ErrorCode::JOINT_PARENT_LINK_INVALID:
      return "JOINT_PARENT_LINK_INVALID";
    case sdf::ErrorCode::JOINT_PARENT_SAME_AS_CHILD:
      return "JOINT_PARENT_SAME_AS_CHILD";
    case sdf::ErrorCode::FRAME_ATTACHED_TO_INVALID:
      return "FRAME_ATTACHED_TO_INVALID";
    case sdf::ErrorCode::FRAME_ATTACHED_TO_CYCLE:
      return "FRAME_ATTACHED_TO_CYCLE";
    case sdf::ErrorCode::FRAME_ATTACHED_TO_GRAPH_ERROR:
      return "FRAME_ATTACHED_TO_GRAPH_ERROR";
    case sdf::ErrorCode::POSE_RELATIVE_TO_INVALID:
      return "POSE_RELATIVE_TO_INVALID";
    case sdf::ErrorCode::POSE_RELATIVE_TO_CYCLE:
      return "POSE_RELATIVE_TO_CYCLE";
    case sdf::ErrorCode::POSE_RELATIVE_TO_GRAPH_ERROR:
      return "POSE_RELATIVE_TO_GRAPH_ERROR";
    case sdf::ErrorCode::STRING_READ: return "STRING_READ";
    case sdf::ErrorCode::MODEL_PLACEMENT_FRAME_INVALID:
      return "MODEL_PLACEMENT_FRAME_INVALID";
    case sdf::ErrorCode::VERSION_DEPRECATED: return "VERSION_DEPRECATED";
    case sdf::ErrorCode::MERGE_INCLUDE_UNSUPPORTED:
      return "MERGE_INCLUDE_UNSUPPORTED";
#if SDF_MAJOR_VERSION >= 14
    // Codes added after 12.3 (all present in 14.0).
    case sdf::ErrorCode::ELEMENT_ERROR: return "ELEMENT_ERROR";
    case sdf::ErrorCode::ROTATION_SNAP_CONFIG_ERROR:
      return "ROTATION_SNAP_CONFIG_ERROR";
    case sdf::ErrorCode::PARAMETER_ERROR: return "PARAMETER_ERROR";
    case sdf::ErrorCode::UNKNOWN_PARAMETER_TYPE:
      return "UNKNOWN_PARAMETER_TYPE";
    case sdf::ErrorCode::FATAL_ERROR: return "FATAL_ERROR";
    case sdf::ErrorCode::WARNING: return "WARNING";
    case sdf::ErrorCode::JOINT_AXIS_EXPRESSED_IN_INVALID:
      return "JOINT_AXIS_EXPRESSED_IN_INVALID";
    case sdf::ErrorCode::CONVERSION_ERROR: return "CONVERSION_ERROR";
    case sdf::ErrorCode::PARSING_ERROR: return "PARSING_ERROR";
    case sdf::ErrorCode::JOINT_AXIS_MIMIC_INVALID:
      return "JOINT_AXIS_MIMIC_INVALID";
    case sdf::ErrorCode::XML_ERROR: return "XML_ERROR";
#endif
  }
  return "UNKNOWN_ERROR_CODE";
}

// ---------------------------------------------------------------------------
// Poses.

/// Normalised quaternion with the sign convention of the schema:
/// qw >= 0, and when qw == 0 the first non-zero component is positive.
std::vector<double> CanonicalQuatXyzw(const gzm::Quaterniond &_q)
{
  double x = _q.X(), y = _q.Y(), z = _q.Z(), w = _q.W();
  const double n = std::sqrt(x * x + y * y + z * z + w * w);
  if (n > 0 && std::isfinite(n))
  {
    x /= n; y /= n; z /= n; w /= n;
  }
  bool flip = false;
  if (w < 0)
  {
    flip = true;
  }
  else if (w == 0)
  {
    for (double c : {x, y, z})
    {
      if (c != 0)
      {
        flip = c < 0;
        break;
      }
    }
  }
  if (flip)
  {
    x = -x; y = -y; z = -z; w = -w;
  }
  // Avoid printing -0.
  auto fix = [](double v) { return v == 0 ? 0.0 : v; };
  return {fix(x), fix(y), fix(z), fix(w)};
}

void WritePose(Json &_j, const std::optional<Pose> &_p)
{
  if (!_p)
  {
    _j.Null();
    return;
  }
  _j.Raw("{");
  _j.Key("xyz");
  _j.Vec({_p->Pos().X(), _p->Pos().Y(), _p->Pos().Z()});
  _j.Raw(", ");
  _j.Key("quat_xyzw");
  _j.Vec(CanonicalQuatXyzw(_p->Rot()));
  _j.Raw("}");
}

/// Compose two optional poses (A * B); empty if either is empty.
std::optional<Pose> Compose(const std::optional<Pose> &_a,
                            const std::optional<Pose> &_b)
{
  if (!_a || !_b)
    return std::nullopt;
  return (*_a) * (*_b);
}

/// Resolve a semantic pose; empty on any resolution error.
std::optional<Pose> Resolve(const sdf::SemanticPose &_sp,
                            const std::string &_resolveTo = "")
{
  Pose p;
  sdf::Errors errs = _sp.Resolve(p, _resolveTo);
  if (!errs.empty())
    return std::nullopt;
  return p;
}

std::string Scoped(const std::string &_scope, const std::string &_name)
{
  if (_scope.empty())
    return _name;
  return _scope + "::" + _name;
}

// ---------------------------------------------------------------------------
// Entity collectors. Every list keeps document order.

struct Out
{
  Json models, links, joints, frames, actors;
  Sep modelSep{models}, linkSep{links}, jointSep{joints}, frameSep{frames},
      actorSep{actors};
};

void WriteGeometry(Json &_j, const sdf::Geometry *_g)
{
  if (!_g)
  {
    _j.Null();
    return;
  }
  _j.Raw("{");
  switch (_g->Type())
  {
    case sdf::GeometryType::BOX:
    {
      _j.Key("type"); _j.Str("box");
      if (const auto *b = _g->BoxShape())
      {
        _j.Raw(", "); _j.Key("size");
        _j.Vec({b->Size().X(), b->Size().Y(), b->Size().Z()});
      }
      break;
    }
    case sdf::GeometryType::SPHERE:
    {
      _j.Key("type"); _j.Str("sphere");
      if (const auto *s = _g->SphereShape())
      {
        _j.Raw(", "); _j.Key("radius"); _j.Num(s->Radius());
      }
      break;
    }
    case sdf::GeometryType::CYLINDER:
    {
      _j.Key("type"); _j.Str("cylinder");
      if (const auto *c = _g->CylinderShape())
      {
        _j.Raw(", "); _j.Key("radius"); _j.Num(c->Radius());
        _j.Raw(", "); _j.Key("length"); _j.Num(c->Length());
      }
      break;
    }
#if SDF_MAJOR_VERSION >= 14
    // <cone>: libsdformat 14.4+ (gazebosim/sdformat#1415).
    case sdf::GeometryType::CONE:
    {
      _j.Key("type"); _j.Str("cone");
      if (const auto *c = _g->ConeShape())
      {
        _j.Raw(", "); _j.Key("radius"); _j.Num(c->Radius());
        _j.Raw(", "); _j.Key("length"); _j.Num(c->Length());
      }
      break;
    }
#endif
    case sdf::GeometryType::CAPSULE:
    {
      _j.Key("type"); _j.Str("capsule");
      if (const auto *c = _g->CapsuleShape())
      {
        _j.Raw(", "); _j.Key("radius"); _j.Num(c->Radius());
        _j.Raw(", "); _j.Key("length"); _j.Num(c->Length());
      }
      break;
    }
    case sdf::GeometryType::ELLIPSOID:
    {
      _j.Key("type"); _j.Str("ellipsoid");
      if (const auto *e = _g->EllipsoidShape())
      {
        _j.Raw(", "); _j.Key("radii");
        _j.Vec({e->Radii().X(), e->Radii().Y(), e->Radii().Z()});
      }
      break;
    }
    case sdf::GeometryType::PLANE:
    {
      _j.Key("type"); _j.Str("plane");
      if (const auto *p = _g->PlaneShape())
      {
        _j.Raw(", "); _j.Key("normal");
        _j.Vec({p->Normal().X(), p->Normal().Y(), p->Normal().Z()});
        _j.Raw(", "); _j.Key("size");
        _j.Vec({p->Size().X(), p->Size().Y()});
      }
      break;
    }
    case sdf::GeometryType::MESH:
    {
      _j.Key("type"); _j.Str("mesh");
      if (const auto *m = _g->MeshShape())
      {
        _j.Raw(", "); _j.Key("uri"); _j.Str(m->Uri());
        _j.Raw(", "); _j.Key("scale");
        _j.Vec({m->Scale().X(), m->Scale().Y(), m->Scale().Z()});
        _j.Raw(", "); _j.Key("submesh");
        sdf::ElementPtr me = m->Element();
        if (me && me->HasElement("submesh"))
        {
          _j.Raw("{"); _j.Key("name"); _j.Str(m->Submesh());
          _j.Raw(", "); _j.Key("center"); _j.Bool(m->CenterSubmesh());
          _j.Raw("}");
        }
        else
        {
          _j.Null();
        }
      }
      break;
    }
    case sdf::GeometryType::HEIGHTMAP:
    {
      _j.Key("type"); _j.Str("heightmap");
      if (const auto *h = _g->HeightmapShape())
      {
        _j.Raw(", "); _j.Key("uri"); _j.Str(h->Uri());
        _j.Raw(", "); _j.Key("size");
        _j.Vec({h->Size().X(), h->Size().Y(), h->Size().Z()});
        _j.Raw(", "); _j.Key("pos");
        _j.Vec({h->Position().X(), h->Position().Y(), h->Position().Z()});
      }
      break;
    }
    case sdf::GeometryType::EMPTY:
    default:
    {
      // 12.3's DOM has no polyline or image geometry: those load as EMPTY.
      // Report them from the parsed element tree so a reader that does know
      // them can still be compared.
      sdf::ElementPtr ge = _g->Element();
      if (ge && ge->HasElement("polyline"))
      {
        _j.Key("type"); _j.Str("polyline");
        // One polyline element is what <geometry> holds in practice; the
        // first one is reported (the spec allows several).
        sdf::ElementPtr pl = ge->GetElementImpl("polyline");
        _j.Raw(", "); _j.Key("height");
        _j.Num(pl ? pl->Get<double>("height") : 1.0);
        _j.Raw(", "); _j.Key("points"); _j.Raw("[");
        Sep polySep(_j);
        for (sdf::ElementPtr p = pl; p; p = p->GetNextElement("polyline"))
        {
          polySep();
          _j.Raw("[");
          Sep ptSep(_j);
          for (sdf::ElementPtr pt = p->GetElementImpl("point"); pt;
               pt = pt->GetNextElement("point"))
          {
            ptSep();
            auto v = pt->Get<gzm::Vector2d>();
            _j.Vec({v.X(), v.Y()});
          }
          _j.Raw("]");
        }
        _j.Raw("]");
      }
      else if (ge && ge->HasElement("image"))
      {
        _j.Key("type"); _j.Str("image");
      }
      else
      {
        _j.Key("type"); _j.Str("empty");
      }
      break;
    }
  }
  _j.Raw("}");
}

template <typename T>
void WriteShapeList(Json &_j, const T &_items)
{
  // _items: vector of (name, pose-in-link, geometry)
  _j.Raw("[");
  Sep sep(_j);
  for (const auto &[name, pose, geom] : _items)
  {
    sep();
    _j.Raw("{");
    _j.Key("name"); _j.Str(name);
    _j.Raw(", "); _j.Key("pose"); WritePose(_j, pose);
    _j.Raw(", "); _j.Key("geometry"); WriteGeometry(_j, geom);
    _j.Raw("}");
  }
  _j.Raw("]");
}

void WriteLink(Out &_o, const sdf::Link &_link, const std::string &_scope,
               const std::optional<Pose> &_modelWorld)
{
  Json &j = _o.links;
  _o.linkSep();
  const std::optional<Pose> linkWorld =
      Compose(_modelWorld, Resolve(_link.SemanticPose()));
  const auto &inertial = _link.Inertial();
  const auto &mm = inertial.MassMatrix();

  j.Raw("{");
  j.Key("name"); j.Str(Scoped(_scope, _link.Name()));
  j.Raw(", "); j.Key("pose"); WritePose(j, linkWorld);
  j.Raw(", "); j.Key("mass"); j.Num(mm.Mass());
  j.Raw(", "); j.Key("inertia");
  j.Vec({mm.Ixx(), mm.Ixy(), mm.Ixz(), mm.Iyy(), mm.Iyz(), mm.Izz()});
  j.Raw(", "); j.Key("inertial_pose");
  WritePose(j, Compose(linkWorld, inertial.Pose()));

  using Item = std::tuple<std::string, std::optional<Pose>,
                          const sdf::Geometry *>;
  std::vector<Item> visuals, collisions;
  for (uint64_t i = 0; i < _link.VisualCount(); ++i)
  {
    const sdf::Visual *v = _link.VisualByIndex(i);
    if (!v) continue;
    visuals.emplace_back(v->Name(), Resolve(v->SemanticPose()), v->Geom());
  }
  for (uint64_t i = 0; i < _link.CollisionCount(); ++i)
  {
    const sdf::Collision *c = _link.CollisionByIndex(i);
    if (!c) continue;
    collisions.emplace_back(c->Name(), Resolve(c->SemanticPose()), c->Geom());
  }
  j.Raw(", "); j.Key("visuals"); WriteShapeList(j, visuals);
  j.Raw(", "); j.Key("collisions"); WriteShapeList(j, collisions);
  j.Raw("}");
}

const char *JointTypeName(sdf::JointType _t)
{
  switch (_t)
  {
    case sdf::JointType::BALL: return "ball";
    case sdf::JointType::CONTINUOUS: return "continuous";
    case sdf::JointType::FIXED: return "fixed";
    case sdf::JointType::GEARBOX: return "gearbox";
    case sdf::JointType::PRISMATIC: return "prismatic";
    case sdf::JointType::REVOLUTE: return "revolute";
    case sdf::JointType::REVOLUTE2: return "revolute2";
    case sdf::JointType::SCREW: return "screw";
    case sdf::JointType::UNIVERSAL: return "universal";
    case sdf::JointType::INVALID:
    default: return "invalid";
  }
}

/// Axis unit vector in the world frame, or empty when it cannot be resolved.
std::optional<Vec3> AxisInWorld(const sdf::JointAxis *_axis,
                                const std::optional<Pose> &_modelWorld,
                                const std::string &_scopeFrame = "__model__")
{
  if (!_axis || !_modelWorld)
    return std::nullopt;
  Vec3 inModel;
  sdf::Errors errs = _axis->ResolveXyz(inModel, _scopeFrame);
  if (!errs.empty())
    return std::nullopt;
  gzm::Quaterniond rot = _modelWorld->Rot();
  rot.Normalize();
  Vec3 w = rot.RotateVector(inModel);
  const double n = w.Length();
  if (n > 0 && std::isfinite(n))
    w /= n;
  return w;
}

void WriteAxis(Json &_j, const std::optional<Vec3> &_v)
{
  if (!_v)
  {
    _j.Null();
    return;
  }
  _j.Vec({_v->X(), _v->Y(), _v->Z()});
}

std::string ResolvedBody(const std::function<sdf::Errors(std::string &)> &_fn,
                         const std::string &_raw, const std::string &_scope)
{
  std::string body;
  sdf::Errors errs = _fn(body);
  if (!errs.empty() || body.empty())
    body = _raw;  // unresolved (invalid file): report the name as written
  if (body == "world")
    return body;
  return Scoped(_scope, body);
}

/// `_scopeFrame` is the frame `_modelWorld` places: `__model__`, or `world`
/// for the joints of a world (SDFormat 1.10, libsdformat 13+).
void WriteJoint(Out &_o, const sdf::Joint &_joint, const std::string &_scope,
                const std::optional<Pose> &_modelWorld,
                const std::string &_scopeFrame = "__model__")
{
  Json &j = _o.joints;
  _o.jointSep();
  const sdf::JointAxis *axis = _joint.Axis(0);
  const sdf::JointAxis *axis2 = _joint.Axis(1);

  j.Raw("{");
  j.Key("name"); j.Str(Scoped(_scope, _joint.Name()));
  j.Raw(", "); j.Key("type"); j.Str(JointTypeName(_joint.Type()));
  j.Raw(", "); j.Key("parent");
  j.Str(ResolvedBody(
      [&](std::string &_b) { return _joint.ResolveParentLink(_b); },
      _joint.PROBE_PARENT_NAME(), _scope));
  j.Raw(", "); j.Key("child");
  j.Str(ResolvedBody(
      [&](std::string &_b) { return _joint.ResolveChildLink(_b); },
      _joint.PROBE_CHILD_NAME(), _scope));
  j.Raw(", "); j.Key("pose");
  WritePose(j, Compose(_modelWorld,
                       Resolve(_joint.SemanticPose(), _scopeFrame)));
  j.Raw(", "); j.Key("axis");
  WriteAxis(j, AxisInWorld(axis, _modelWorld, _scopeFrame));
  j.Raw(", "); j.Key("axis2");
  WriteAxis(j, AxisInWorld(axis2, _modelWorld, _scopeFrame));
  j.Raw(", "); j.Key("limit");
  if (axis)
  {
    j.Raw("{");
    j.Key("lower"); j.Num(axis->Lower());
    j.Raw(", "); j.Key("upper"); j.Num(axis->Upper());
    j.Raw(", "); j.Key("effort"); j.Num(axis->Effort());
    j.Raw(", "); j.Key("velocity"); j.Num(axis->MaxVelocity());
    j.Raw("}");
  }
  else
  {
    j.Null();
  }
  j.Raw(", "); j.Key("dynamics");
  if (axis)
  {
    j.Raw("{");
    j.Key("damping"); j.Num(axis->Damping());
    j.Raw(", "); j.Key("friction"); j.Num(axis->Friction());
    j.Raw("}");
  }
  else
  {
    j.Null();
  }
  j.Raw("}");
}

void WriteFrame(Out &_o, const sdf::Frame &_frame, const std::string &_scope,
                const std::optional<Pose> &_scopeWorld)
{
  Json &j = _o.frames;
  _o.frameSep();
  j.Raw("{");
  j.Key("name"); j.Str(Scoped(_scope, _frame.Name()));
  j.Raw(", "); j.Key("attached_to");
  {
    std::string body;
    sdf::Errors errs = _frame.ResolveAttachedToBody(body);
    if (!errs.empty() || body.empty())
      j.Null();
    else if (body == "world")
      j.Str(body);
    else
      j.Str(Scoped(_scope, body));
  }
  j.Raw(", "); j.Key("pose");
  WritePose(j, Compose(_scopeWorld, Resolve(_frame.SemanticPose())));
  j.Raw("}");
}

void WriteModel(Out &_o, const sdf::Model &_model,
                const std::string &_parentScope,
                const std::optional<Pose> &_modelWorld)
{
  const std::string scope = Scoped(_parentScope, _model.Name());
  {
    Json &j = _o.models;
    _o.modelSep();
    j.Raw("{");
    j.Key("name"); j.Str(scope);
    j.Raw(", "); j.Key("pose"); WritePose(j, _modelWorld);
    j.Raw(", "); j.Key("canonical_link");
    const auto canon = _model.CanonicalLinkAndRelativeName();
    if (canon.second.empty())
      j.Null();
    else
      j.Str(Scoped(scope, canon.second));
    j.Raw(", "); j.Key("static"); j.Bool(_model.Static());
    j.Raw("}");
  }

  for (uint64_t i = 0; i < _model.LinkCount(); ++i)
  {
    if (const sdf::Link *l = _model.LinkByIndex(i))
      WriteLink(_o, *l, scope, _modelWorld);
  }
  for (uint64_t i = 0; i < _model.JointCount(); ++i)
  {
    if (const sdf::Joint *jt = _model.JointByIndex(i))
      WriteJoint(_o, *jt, scope, _modelWorld);
  }
  for (uint64_t i = 0; i < _model.FrameCount(); ++i)
  {
    if (const sdf::Frame *f = _model.FrameByIndex(i))
      WriteFrame(_o, *f, scope, _modelWorld);
  }
  for (uint64_t i = 0; i < _model.ModelCount(); ++i)
  {
    const sdf::Model *m = _model.ModelByIndex(i);
    if (!m) continue;
    WriteModel(_o, *m, scope,
               Compose(_modelWorld, Resolve(m->SemanticPose())));
  }
}

void WriteActor(Out &_o, const sdf::Actor &_actor)
{
  Json &j = _o.actors;
  _o.actorSep();
  j.Raw("{");
  j.Key("name"); j.Str(_actor.Name());
  // Actors are not part of the frame graphs in libsdformat 12: the raw pose
  // is all it offers (it is in the world frame when relative_to is empty).
  j.Raw(", "); j.Key("pose"); WritePose(j, _actor.RawPose());
  j.Raw(", "); j.Key("skin"); j.Str(_actor.SkinFilename());
  j.Raw(", "); j.Key("animations"); j.Raw("[");
  {
    Sep sep(j);
    for (uint64_t i = 0; i < _actor.AnimationCount(); ++i)
    {
      const sdf::Animation *a = _actor.AnimationByIndex(i);
      if (!a) continue;
      sep();
      j.Raw("{");
      j.Key("name"); j.Str(a->Name());
      j.Raw(", "); j.Key("filename"); j.Str(a->Filename());
      j.Raw(", "); j.Key("scale"); j.Num(a->Scale());
      j.Raw(", "); j.Key("interpolate_x"); j.Bool(a->InterpolateX());
      j.Raw("}");
    }
  }
  j.Raw("]");
  j.Raw(", "); j.Key("trajectories"); j.Raw("[");
  {
    Sep sep(j);
    for (uint64_t i = 0; i < _actor.TrajectoryCount(); ++i)
    {
      const sdf::Trajectory *t = _actor.TrajectoryByIndex(i);
      if (!t) continue;
      sep();
      j.Raw("{");
      j.Key("id"); j.Int(t->Id());
      j.Raw(", "); j.Key("type"); j.Str(t->Type());
      j.Raw(", "); j.Key("tension"); j.Num(t->Tension());
      j.Raw(", "); j.Key("waypoints"); j.Raw("[");
      Sep wsep(j);
      for (uint64_t w = 0; w < t->WaypointCount(); ++w)
      {
        const sdf::Waypoint *wp = t->WaypointByIndex(w);
        if (!wp) continue;
        wsep();
        j.Raw("{");
        j.Key("time"); j.Num(wp->Time());
        j.Raw(", "); j.Key("pose"); WritePose(j, wp->Pose());
        j.Raw("}");
      }
      j.Raw("]");
      j.Raw("}");
    }
  }
  j.Raw("]");
  j.Raw(", "); j.Key("script");
  j.Raw("{");
  j.Key("loop"); j.Bool(_actor.ScriptLoop());
  j.Raw(", "); j.Key("delay_start"); j.Num(_actor.ScriptDelayStart());
  j.Raw(", "); j.Key("auto_start"); j.Bool(_actor.ScriptAutoStart());
  j.Raw("}");
  j.Raw("}");
}

void WriteWorld(Out &_o, const sdf::World &_world)
{
  const Pose identity;
  for (uint64_t i = 0; i < _world.ModelCount(); ++i)
  {
    const sdf::Model *m = _world.ModelByIndex(i);
    if (!m) continue;
    // Default resolve-to of a world-level model is the world frame.
    WriteModel(_o, *m, "", Resolve(m->SemanticPose()));
  }
#if SDF_MAJOR_VERSION >= 13
  for (uint64_t i = 0; i < _world.JointCount(); ++i)
  {
    if (const sdf::Joint *jt = _world.JointByIndex(i))
      WriteJoint(_o, *jt, "", identity, "world");
  }
#endif
  for (uint64_t i = 0; i < _world.FrameCount(); ++i)
  {
    if (const sdf::Frame *f = _world.FrameByIndex(i))
      WriteFrame(_o, *f, "", identity);
  }
  for (uint64_t i = 0; i < _world.ActorCount(); ++i)
  {
    if (const sdf::Actor *a = _world.ActorByIndex(i))
      WriteActor(_o, *a);
  }
}

// ---------------------------------------------------------------------------
// Resource lookup.

std::vector<std::string> SplitPaths(const char *_env)
{
  std::vector<std::string> out;
  if (!_env)
    return out;
  std::stringstream ss(_env);
  std::string part;
  while (std::getline(ss, part, ':'))
  {
    if (!part.empty())
      out.push_back(part);
  }
  return out;
}

/// Last-resort lookup used by libsdformat after its own search (URI map,
/// install share dirs, the path itself, SDF_PATH, the working directory)
/// failed. libsdformat 12 knows SDF_PATH only; Gazebo installs a callback
/// like this one for its resource variables. Order: SDF_PATH,
/// GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH.
std::string FindResource(const std::string &_uri)
{
  std::string rel = _uri;
  const std::string scheme = "model://";
  if (rel.compare(0, scheme.size(), scheme) == 0)
    rel = rel.substr(scheme.size());
  else if (rel.find("://") != std::string::npos)
    return "";
  for (const char *var :
       {"SDF_PATH", "GZ_SIM_RESOURCE_PATH", "IGN_GAZEBO_RESOURCE_PATH"})
  {
    for (const auto &dir : SplitPaths(std::getenv(var)))
    {
      const std::string candidate = sdf::filesystem::append(dir, rel);
      if (sdf::filesystem::exists(candidate))
        return candidate;
    }
  }
  return "";
}

// ---------------------------------------------------------------------------
struct FileInfo
{
  std::string format = "sdf";
  std::optional<std::string> version;
};

FileInfo InspectFile(const std::string &_path)
{
  FileInfo info;
  const auto dot = _path.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : _path.substr(dot);
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(_path.c_str()) == tinyxml2::XML_SUCCESS &&
      doc.RootElement())
  {
    const std::string root = doc.RootElement()->Name();
    if (root == "robot")
    {
      info.format = "urdf";
    }
    else if (root == "sdf")
    {
      if (const char *v = doc.RootElement()->Attribute("version"))
        info.version = std::string(v);
    }
    else if (ext == ".urdf")
    {
      info.format = "urdf";
    }
  }
  else if (ext == ".urdf")
  {
    info.format = "urdf";
  }
  return info;
}

struct IgnCheck
{
  bool valid = true;
  std::vector<std::string> failed;
};

/// The extra checks `ign sdf -k` runs after Root::Load succeeds.
IgnCheck RunIgnChecks(const sdf::Root &_root)
{
  IgnCheck r;
  auto check = [&r](const char *_name, bool _ok)
  {
    if (!_ok)
    {
      r.valid = false;
      r.failed.push_back(_name);
    }
  };
  check("checkCanonicalLinkNames", sdf::checkCanonicalLinkNames(&_root));
  check("checkJointParentChildLinkNames",
        sdf::PROBE_CHECK_JOINT_NAMES(&_root));
  check("checkFrameAttachedToGraph", sdf::checkFrameAttachedToGraph(&_root));
  check("checkPoseRelativeToGraph", sdf::checkPoseRelativeToGraph(&_root));
  if (_root.Element())
  {
    check("recursiveSiblingUniqueNames",
          sdf::recursiveSiblingUniqueNames(_root.Element()));
  }
  return r;
}

std::string Run(const std::string &_path, bool _ignCheck)
{
  sdf::ParserConfig::GlobalConfig().SetFindCallback(FindResource);

  const FileInfo info = InspectFile(_path);
  sdf::Root root;
  sdf::Errors errors = root.Load(_path);

  Out o;
  if (const sdf::Model *m = root.Model())
  {
    // A lone model is placed in the world by its own pose: its pose relative
    // to the implicit __root__ frame (placement_frame applied).
    WriteModel(o, *m, "", Resolve(m->SemanticPose()));
  }
  for (uint64_t w = 0; w < root.WorldCount(); ++w)
  {
    if (const sdf::World *world = root.WorldByIndex(w))
      WriteWorld(o, *world);
  }
  if (const sdf::Actor *a = root.Actor())
    WriteActor(o, *a);

  Json j;
  j.Raw("{");
  j.Key("file"); j.Str(_path);
  j.Raw(", "); j.Key("format"); j.Str(info.format);
  j.Raw(", "); j.Key("version");
  if (info.format == "urdf") j.Null(); else j.OptStr(info.version);
  j.Raw(", "); j.Key("valid"); j.Bool(errors.empty());
  j.Raw(", "); j.Key("errors"); j.Raw("[");
  {
    Sep sep(j);
    for (const auto &e : errors)
    {
      sep();
      j.Raw("{");
      j.Key("code"); j.Str(ErrorCodeName(e.Code()));
      j.Raw(", "); j.Key("message"); j.Str(e.Message());
      j.Raw(", "); j.Key("file"); j.OptStr(e.FilePath());
      j.Raw(", "); j.Key("line");
      if (e.LineNumber()) j.Int(static_cast<uint64_t>(*e.LineNumber()));
      else j.Null();
      j.Raw("}");
    }
  }
  j.Raw("]");
  j.Raw(", "); j.Key("warnings"); j.Raw("[]");
  j.Raw(", "); j.Key("models"); j.Raw("["); j.Raw(o.models.out); j.Raw("]");
  j.Raw(", "); j.Key("links"); j.Raw("["); j.Raw(o.links.out); j.Raw("]");
  j.Raw(", "); j.Key("joints"); j.Raw("["); j.Raw(o.joints.out); j.Raw("]");
  j.Raw(", "); j.Key("frames"); j.Raw("["); j.Raw(o.frames.out); j.Raw("]");
  j.Raw(", "); j.Key("actors"); j.Raw("["); j.Raw(o.actors.out); j.Raw("]");
  if (_ignCheck)
  {
    const IgnCheck ic = errors.empty() ? RunIgnChecks(root) : IgnCheck{false,
        {"Root::Load"}};
    j.Raw(", "); j.Key("ign_check"); j.Raw("{");
    j.Key("valid"); j.Bool(ic.valid);
    j.Raw(", "); j.Key("failed"); j.Raw("[");
    Sep sep(j);
    for (const auto &f : ic.failed)
    {
      sep();
      j.Str(f);
    }
    j.Raw("]}");
  }
  j.Raw("}");
  return j.out;
}

std::string ExceptionJson(const std::string &_path, const std::string &_what)
{
  const FileInfo info = InspectFile(_path);
  Json j;
  j.Raw("{");
  j.Key("file"); j.Str(_path);
  j.Raw(", "); j.Key("format"); j.Str(info.format);
  j.Raw(", "); j.Key("version");
  if (info.format == "urdf") j.Null(); else j.OptStr(info.version);
  j.Raw(", "); j.Key("valid"); j.Bool(false);
  j.Raw(", "); j.Key("errors"); j.Raw("[{");
  // Not a libsdformat ErrorCode: libsdformat threw instead of reporting.
  j.Key("code"); j.Str("EXCEPTION");
  j.Raw(", "); j.Key("message"); j.Str(_what);
  j.Raw(", "); j.Key("file"); j.Null();
  j.Raw(", "); j.Key("line"); j.Null();
  j.Raw("}]");
  j.Raw(", \"warnings\": [], \"models\": [], \"links\": [], \"joints\": [], "
        "\"frames\": [], \"actors\": []}");
  return j.out;
}
}  // namespace

int main(int _argc, char **_argv)
{
  bool ignCheck = false;
  std::string path;
  for (int i = 1; i < _argc; ++i)
  {
    const std::string arg = _argv[i];
    if (arg == "--ign-check")
      ignCheck = true;
    else if (path.empty())
      path = arg;
    else
      path.clear(), i = _argc;  // more than one file: usage error below
  }
  if (path.empty())
  {
    std::fprintf(stderr, "usage: %s [--ign-check] FILE\n", _argv[0]);
    return 2;
  }

  std::string json;
  try
  {
    json = Run(path, ignCheck);
  }
  catch (const sdf::Exception &_e)
  {
    // e.g. SDF_ASSERT failures inside the 1.7 -> 1.8 "unflatten" converter.
    json = ExceptionJson(path, _e.GetErrorStr());
  }
  catch (const std::exception &_e)
  {
    json = ExceptionJson(path, _e.what());
  }
  catch (...)
  {
    json = ExceptionJson(path, "unknown exception");
  }
  std::fwrite(json.data(), 1, json.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
  return 0;
}
