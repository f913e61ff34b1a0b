// gazebo_standin: a tiny stand-in for a running gz-sim server, for tests.
//
// Gazebo itself cannot be installed here, but its transport (ignition-
// transport 11), its messages (ignition-msgs 8) and its SDFormat parser
// (libsdformat 12) can: this program offers, over real gz-transport, the
// services that gz-sim (Fortress) offers to spawn, remove and move entities,
// with the same names, message types and behaviour:
//
//   /gazebo/worlds                    Empty          -> StringMsg_V  (ServerPrivate)
//   /world/<w>/create                 EntityFactory  -> Boolean      (UserCommands)
//   /world/<w>/remove                 Entity         -> Boolean      (UserCommands)
//   /world/<w>/set_pose               Pose           -> Boolean      (UserCommands)
//   /world/<w>/scene/info             Empty          -> Scene        (SceneBroadcaster)
//   /world/<w>/pose/info  (topic)     Pose_V, 50 Hz                  (SceneBroadcaster)
//
// What it copies from gz-sim, on purpose:
// - create/remove/set_pose only queue a command and answer `data: true` at
//   once; the command runs at the next simulation step and its failures are
//   only printed on stderr. A client must look at the scene to know whether
//   an entity was really created (that is what sdf_tools' spawner checks).
// - create loads `sdf` with sdf::Root::LoadSdfString and `sdf_filename` with
//   sdf::Root::Load, refuses the entity on any libsdformat error, and takes
//   its name from `name` or else from the SDF. A clash among the world's
//   top-level entities fails unless `allow_renaming`, which then tries
//   name_0, name_1, ... A `pose` replaces the model's own pose; `relative_to`
//   is ignored, as gz-sim ignores it (the pose is in the world frame).
// - SDF_PATH is extended with IGN_GAZEBO_RESOURCE_PATH and
//   GZ_SIM_RESOURCE_PATH at start-up (gz-sim's addResourcePaths), so
//   model:// includes resolve the same way. Nothing is ever downloaded.
// - remove takes an entity id, or a scoped name with a type; only models and
//   lights that are direct children of the world can be removed. set_pose
//   takes an id or the name of a top-level entity; only top-level models move
//   (gz-sim's Physics does not set world poses of nested models or links).
// - Poses are relative to the parent entity: top-level models in the world
//   frame, links and nested models in their model's frame. As in gz-sim, the
//   scene (scene/info) keeps the pose each entity had when it was created;
//   current poses are published on pose/info (models, links and lights).
//
// What it leaves out: physics, rendering, plugins (they are not loaded),
// actors, lights given as messages, clone_name and create_multiple. Missing
// mesh files are not an error in gz-sim either; they are only reported.
//
// Usage: gazebo_standin [--step-ms N] WORLD [WORLD...]
// Prints "ready" on stdout once every service is advertised; stops on SIGINT
// or SIGTERM. Test infrastructure only: see docs/spawn.md.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <ignition/math/Pose3.hh>
#include <ignition/msgs/Utility.hh>
#include <ignition/msgs/boolean.pb.h>
#include <ignition/msgs/empty.pb.h>
#include <ignition/msgs/entity.pb.h>
#include <ignition/msgs/entity_factory.pb.h>
#include <ignition/msgs/pose.pb.h>
#include <ignition/msgs/pose_v.pb.h>
#include <ignition/msgs/scene.pb.h>
#include <ignition/msgs/stringmsg_v.pb.h>
#include <ignition/transport/Node.hh>
#include <ignition/transport/TopicUtils.hh>
#include <sdf/sdf.hh>

namespace msgs = ignition::msgs;
using Pose = ignition::math::Pose3d;

namespace
{
// ---------------------------------------------------------------------------
// Logging in gz-sim's style ("[Err] ..."), one line per call, on stderr.
std::mutex gLogMutex;

void Log(const char *_level, const std::string &_text)
{
  std::lock_guard<std::mutex> lock(gLogMutex);
  std::cerr << "[" << _level << "] [gazebo_standin] " << _text << std::endl;
}

void Err(const std::string &_t) { Log("Err", _t); }
void Wrn(const std::string &_t) { Log("Wrn", _t); }
void Msg(const std::string &_t) { Log("Msg", _t); }

// ---------------------------------------------------------------------------
// The entity tree: what gz-sim's ECM holds that the services can observe.
enum class Kind { Model, Link, Joint, Light };

struct Entity
{
  uint64_t id = 0;
  std::string name;
  Kind kind = Kind::Model;
  /// Current pose relative to the parent entity (the world for top-level
  /// entities), as published on pose/info.
  Pose pose;
  /// The pose when the entity was created: what scene/info reports.
  Pose scenePose;
  bool isStatic = false;
  std::vector<Entity> children;
};

/// gz-sim's ResolveSdfPose: the resolved pose, or the raw pose on errors.
Pose ResolveSdfPose(const sdf::SemanticPose &_semPose)
{
  Pose pose;
  if (!_semPose.Resolve(pose).empty())
    pose = _semPose.RawPose();
  return pose;
}

class World
{
  public: explicit World(std::string _name) : name(std::move(_name)) {}

  public: const std::string name;

  /// Queue a command; it runs at the next Step() (gz-sim's PreUpdate).
  public: void Queue(std::function<void(World &)> _cmd)
  {
    std::lock_guard<std::mutex> lock(this->pendingMutex);
    this->pending.push_back(std::move(_cmd));
  }

  /// Run the queued commands; each locks the state only once its SDF is
  /// loaded, so the scene stays readable while libsdformat works.
  public: void Step()
  {
    std::vector<std::function<void(World &)>> cmds;
    {
      std::lock_guard<std::mutex> lock(this->pendingMutex);
      cmds.swap(this->pending);
    }
    for (auto &cmd : cmds)
      cmd(*this);
  }

  public: void FillPoses(msgs::Pose_V &_poses)
  {
    std::lock_guard<std::mutex> lock(this->stateMutex);
    std::function<void(const std::vector<Entity> &)> add = [&](const std::vector<Entity> &_level)
    {
      for (const auto &e : _level)
      {
        if (e.kind == Kind::Joint)
          continue;
        auto *pose = _poses.add_pose();
        msgs::Set(pose, e.pose);
        pose->set_name(e.name);
        pose->set_id(static_cast<uint32_t>(e.id));
        add(e.children);
      }
    };
    add(this->top);
  }

  public: void FillScene(msgs::Scene &_scene)
  {
    std::lock_guard<std::mutex> lock(this->stateMutex);
    _scene.set_name(this->name);
    for (const auto &e : this->top)
    {
      if (e.kind == Kind::Light)
      {
        auto *light = _scene.add_light();
        light->set_name(e.name);
        light->set_id(static_cast<uint32_t>(e.id));
        msgs::Set(light->mutable_pose(), e.scenePose);
      }
      else
      {
        FillModel(*_scene.add_model(), e);
      }
    }
  }

  // --- commands, run by Step() ---------------------------------------------
  public: void Create(const msgs::EntityFactory &_msg);
  public: void Remove(const msgs::Entity &_msg);
  public: void SetPose(const msgs::Pose &_msg);

  private: static void FillModel(msgs::Model &_out, const Entity &_e)
  {
    _out.set_name(_e.name);
    _out.set_id(static_cast<uint32_t>(_e.id));
    _out.set_is_static(_e.isStatic);
    msgs::Set(_out.mutable_pose(), _e.scenePose);
    _out.mutable_pose()->set_name(_e.name);
    _out.mutable_pose()->set_id(static_cast<uint32_t>(_e.id));
    for (const auto &c : _e.children)
    {
      if (c.kind == Kind::Model)
      {
        FillModel(*_out.add_model(), c);
      }
      else if (c.kind == Kind::Link)
      {
        auto *link = _out.add_link();
        link->set_name(c.name);
        link->set_id(static_cast<uint32_t>(c.id));
        msgs::Set(link->mutable_pose(), c.scenePose);
      }
      else if (c.kind == Kind::Joint)
      {
        auto *joint = _out.add_joint();
        joint->set_name(c.name);
        joint->set_id(static_cast<uint32_t>(c.id));
      }
    }
  }

  private: Entity FromModel(const sdf::Model &_model, bool _staticParent)
  {
    Entity e;
    e.id = this->nextId++;
    e.name = _model.Name();
    e.kind = Kind::Model;
    e.pose = e.scenePose = ResolveSdfPose(_model.SemanticPose());
    e.isStatic = _model.Static() || _staticParent;
    for (uint64_t i = 0; i < _model.LinkCount(); ++i)
    {
      const sdf::Link *link = _model.LinkByIndex(i);
      Entity l;
      l.id = this->nextId++;
      l.name = link->Name();
      l.kind = Kind::Link;
      l.pose = l.scenePose = ResolveSdfPose(link->SemanticPose());
      e.children.push_back(l);
      ReportMissingMeshes(*link);
    }
    for (uint64_t i = 0; i < _model.JointCount(); ++i)
    {
      Entity j;
      j.id = this->nextId++;
      j.name = _model.JointByIndex(i)->Name();
      j.kind = Kind::Joint;
      e.children.push_back(j);
    }
    for (uint64_t i = 0; i < _model.ModelCount(); ++i)
      e.children.push_back(this->FromModel(*_model.ModelByIndex(i), e.isStatic));
    return e;
  }

  /// gz-sim only logs meshes it cannot find (when physics or rendering load
  /// them); so does the stand-in, as a warning.
  private: static void ReportMissingMeshes(const sdf::Link &_link)
  {
    auto check = [&_link](const sdf::Geometry *_geom, const std::string &_what)
    {
      if (_geom == nullptr || _geom->MeshShape() == nullptr)
        return;
      const sdf::Mesh *mesh = _geom->MeshShape();
      std::string uri = mesh->Uri();
      const std::string fileScheme = "file://";
      if (uri.rfind(fileScheme, 0) == 0)
        uri = uri.substr(fileScheme.size());
      if (uri.empty() || uri.find("://") != std::string::npos)
        return;  // model://, package://, https://: resolved by Gazebo's callbacks
      std::filesystem::path path = uri;
      if (path.is_relative() && !mesh->FilePath().empty())
        path = std::filesystem::path(mesh->FilePath()).parent_path() / path;
      if (!std::filesystem::exists(path))
        Wrn("Unable to find mesh [" + mesh->Uri() + "] of " + _what + " in link [" +
            _link.Name() + "]");
    };
    for (uint64_t i = 0; i < _link.VisualCount(); ++i)
      check(_link.VisualByIndex(i)->Geom(), "visual [" + _link.VisualByIndex(i)->Name() + "]");
    for (uint64_t i = 0; i < _link.CollisionCount(); ++i)
      check(_link.CollisionByIndex(i)->Geom(),
            "collision [" + _link.CollisionByIndex(i)->Name() + "]");
  }

  private: Entity *TopByName(const std::string &_name)
  {
    for (auto &e : this->top)
      if (e.name == _name)
        return &e;
    return nullptr;
  }

  /// gz-sim's entitiesFromScopedName: every entity, at any depth, whose
  /// scoped path (its ancestors' names, then its own) ends with `_names`.
  private: static void FindScoped(std::vector<Entity> &_level,
                                  const std::vector<std::string> &_names,
                                  std::vector<std::string> &_path,
                                  std::vector<Entity *> &_found)
  {
    for (auto &e : _level)
    {
      _path.push_back(e.name);
      if (_path.size() >= _names.size() &&
          std::equal(_names.begin(), _names.end(), _path.end() - _names.size()))
      {
        _found.push_back(&e);
      }
      FindScoped(e.children, _names, _path, _found);
      _path.pop_back();
    }
  }

  private: std::mutex pendingMutex;
  private: std::vector<std::function<void(World &)>> pending;
  private: std::mutex stateMutex;
  private: std::vector<Entity> top;
  /// The world is entity 1, as in gz-sim; every new entity gets the next id.
  private: uint64_t nextId = 2;
};

std::string Str(const sdf::Error &_e)
{
  std::ostringstream out;
  out << _e;
  return out.str();
}

void World::Create(const msgs::EntityFactory &_msg)
{
  sdf::Root root;
  sdf::Errors errors;
  switch (_msg.from_case())
  {
    case msgs::EntityFactory::kSdf:
      errors = root.LoadSdfString(_msg.sdf());
      break;
    case msgs::EntityFactory::kSdfFilename:
      errors = root.Load(_msg.sdf_filename());
      break;
    case msgs::EntityFactory::kModel:
      Err("model field not yet supported.");
      return;
    case msgs::EntityFactory::kLight:
    case msgs::EntityFactory::kCloneName:
      Err("the stand-in does not support the light and clone_name fields.");
      return;
    default:
      Err("Missing [from] field in create message.");
      return;
  }
  if (!errors.empty())
  {
    for (const auto &err : errors)
      Err(Str(err));
    return;
  }
  std::lock_guard<std::mutex> lock(this->stateMutex);
  const sdf::Model *model = root.Model();
  const sdf::Light *light = model ? nullptr : root.Light();
  if (model == nullptr && light == nullptr)
  {
    Err(root.Actor() ? "the stand-in does not support actors."
                     : "Expected exactly one top-level <model>, <light> or <actor> on SDF.");
    return;
  }

  std::string desiredName = _msg.name();
  if (desiredName.empty())
    desiredName = model ? model->Name() : light->Name();
  if (this->TopByName(desiredName) != nullptr)
  {
    if (!_msg.allow_renaming())
    {
      Wrn("Entity named [" + desiredName + "] already exists and [allow_renaming] is false. "
          "Entity not spawned.");
      return;
    }
    std::string newName = desiredName;
    int i = 0;
    while (this->TopByName(newName) != nullptr)
      newName = desiredName + "_" + std::to_string(i++);
    desiredName = newName;
  }

  Entity e;
  if (model != nullptr)
  {
    e = this->FromModel(*model, false);
  }
  else
  {
    e.id = this->nextId++;
    e.kind = Kind::Light;
    e.pose = ResolveSdfPose(light->SemanticPose());
  }
  e.name = desiredName;
  if (_msg.has_pose())
    e.pose = msgs::Convert(_msg.pose());
  e.scenePose = e.pose;
  if (!_msg.relative_to().empty())
  {
    Wrn("relative_to [" + _msg.relative_to() + "] ignored, as gz-sim ignores it: the pose of [" +
        desiredName + "] is taken in the world frame.");
  }
  Msg("Created entity [" + std::to_string(e.id) + "] named [" + desiredName + "]");
  this->top.push_back(std::move(e));
}

void World::Remove(const msgs::Entity &_msg)
{
  std::lock_guard<std::mutex> lock(this->stateMutex);
  Entity *entity = nullptr;
  if (_msg.id() != 0)
  {
    for (auto &e : this->top)
      if (e.id == _msg.id())
        entity = &e;
    if (entity == nullptr)
    {
      Err("Entity [" + std::to_string(_msg.id()) +
          "] is not a direct child of the world, so it can't be removed.");
      return;
    }
  }
  else if (_msg.type() != msgs::Entity::NONE)
  {
    std::vector<std::string> names;
    std::string name = _msg.name();
    for (size_t pos; (pos = name.find("::")) != std::string::npos; name = name.substr(pos + 2))
      names.push_back(name.substr(0, pos));
    names.push_back(name);
    std::vector<Entity *> found;
    std::vector<std::string> path;
    FindScoped(this->top, names, path, found);
    for (Entity *f : found)
    {
      const bool match = (_msg.type() == msgs::Entity::MODEL && f->kind == Kind::Model) ||
                         (_msg.type() == msgs::Entity::LIGHT && f->kind == Kind::Light) ||
                         (_msg.type() == msgs::Entity::LINK && f->kind == Kind::Link) ||
                         (_msg.type() == msgs::Entity::JOINT && f->kind == Kind::Joint);
      if (match)
      {
        entity = f;
        break;
      }
    }
  }
  if (entity == nullptr)
  {
    Err("Entity named [" + _msg.name() + "] of type [" + msgs::Entity::Type_Name(_msg.type()) +
        "] not found, so not removed.");
    return;
  }
  for (auto it = this->top.begin(); it != this->top.end(); ++it)
  {
    if (&*it == entity)
    {
      Msg("Removed entity [" + std::to_string(it->id) + "] named [" + it->name + "]");
      this->top.erase(it);
      return;
    }
  }
  Err("Entity [" + std::to_string(entity->id) +
      "] is not a direct child of the world, so it can't be removed.");
}

void World::SetPose(const msgs::Pose &_msg)
{
  std::lock_guard<std::mutex> lock(this->stateMutex);
  Entity *entity = nullptr;
  bool topLevel = false;
  if (_msg.id() != 0)
  {
    std::function<Entity *(std::vector<Entity> &)> byId = [&](std::vector<Entity> &_level)
    {
      for (auto &e : _level)
      {
        if (e.id == _msg.id())
          return &e;
        if (Entity *f = byId(e.children))
          return f;
      }
      return static_cast<Entity *>(nullptr);
    };
    entity = byId(this->top);
    for (auto &e : this->top)
      topLevel = topLevel || &e == entity;
  }
  else if (!_msg.name().empty())
  {
    entity = this->TopByName(_msg.name());
    topLevel = entity != nullptr;
  }
  if (entity == nullptr)
  {
    Err("Unable to update the pose for entity id:[" + std::to_string(_msg.id()) + "], name[" +
        _msg.name() + "]");
    return;
  }
  if (!topLevel || entity->kind != Kind::Model)
  {
    Err("Unable to set the world pose of entity [" + std::to_string(entity->id) +
        "]: only top-level models can be moved.");
    return;
  }
  entity->pose = msgs::Convert(_msg);
}

// ---------------------------------------------------------------------------
std::atomic<bool> gRunning{true};

std::vector<std::string> SplitPaths(const char *_env)
{
  std::vector<std::string> out;
  std::stringstream ss(_env ? _env : "");
  std::string part;
  while (std::getline(ss, part, ':'))
    if (!part.empty())
      out.push_back(part);
  return out;
}

/// gz-sim's addResourcePaths: append the Gazebo resource variables to SDF_PATH.
void AddResourcePaths()
{
  std::vector<std::string> paths = SplitPaths(std::getenv("SDF_PATH"));
  for (const char *var : {"IGN_GAZEBO_RESOURCE_PATH", "GZ_SIM_RESOURCE_PATH"})
  {
    for (const auto &p : SplitPaths(std::getenv(var)))
    {
      bool known = false;
      for (const auto &q : paths)
        known = known || p == q;
      if (!known)
        paths.push_back(p);
    }
  }
  std::string joined;
  for (const auto &p : paths)
    joined += ":" + p;
  setenv("SDF_PATH", joined.c_str(), 1);
  // gz-sim asks Fuel for what libsdformat cannot find; the stand-in never
  // downloads anything, and an empty answer means "not found".
  sdf::setFindCallback([](const std::string &) { return std::string(); });
}

int Usage()
{
  std::cerr << "usage: gazebo_standin [--step-ms N] WORLD [WORLD...]" << std::endl;
  return 2;
}

bool Advertise(ignition::transport::Node &_node, const std::shared_ptr<World> &_world)
{
  const std::string ns = "/world/" + ignition::transport::TopicUtils::AsValidTopic(_world->name);
  std::weak_ptr<World> weak = _world;
  bool ok = true;
  ok &= _node.Advertise<msgs::EntityFactory, msgs::Boolean>(
      ns + "/create", [weak](const msgs::EntityFactory &_req, msgs::Boolean &_rep)
      {
        if (auto w = weak.lock())
          w->Queue([req = _req](World &_w) { _w.Create(req); });
        _rep.set_data(true);
        return true;
      });
  ok &= _node.Advertise<msgs::Entity, msgs::Boolean>(
      ns + "/remove", [weak](const msgs::Entity &_req, msgs::Boolean &_rep)
      {
        if (auto w = weak.lock())
          w->Queue([req = _req](World &_w) { _w.Remove(req); });
        _rep.set_data(true);
        return true;
      });
  ok &= _node.Advertise<msgs::Pose, msgs::Boolean>(
      ns + "/set_pose", [weak](const msgs::Pose &_req, msgs::Boolean &_rep)
      {
        if (auto w = weak.lock())
          w->Queue([req = _req](World &_w) { _w.SetPose(req); });
        _rep.set_data(true);
        return true;
      });
  ok &= _node.Advertise<msgs::Empty, msgs::Scene>(
      ns + "/scene/info", [weak](const msgs::Empty &, msgs::Scene &_rep)
      {
        auto w = weak.lock();
        if (w)
          w->FillScene(_rep);
        return w != nullptr;
      });
  if (ok)
    Msg("Serving world [" + _world->name + "] on [" + ns + "/{create,remove,set_pose,scene/info}]");
  return ok;
}
}  // namespace

int main(int argc, char **argv)
{
  int stepMs = 2;
  std::vector<std::string> worldNames;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    if (arg == "--step-ms" && i + 1 < argc)
      stepMs = std::max(1, std::atoi(argv[++i]));
    else if (!arg.empty() && arg[0] == '-')
      return Usage();
    else
      worldNames.push_back(arg);
  }
  if (worldNames.empty())
    return Usage();

  AddResourcePaths();
  std::vector<std::shared_ptr<World>> worlds;
  ignition::transport::Node node;
  for (const auto &name : worldNames)
  {
    worlds.push_back(std::make_shared<World>(name));
    if (!Advertise(node, worlds.back()))
    {
      Err("cannot advertise the services of world [" + name + "]");
      return 1;
    }
  }
  const bool worldsOk = node.Advertise<msgs::Empty, msgs::StringMsg_V>(
      "/gazebo/worlds", [&worldNames](const msgs::Empty &, msgs::StringMsg_V &_rep)
      {
        for (const auto &name : worldNames)
          _rep.add_data(name);
        return true;
      });
  if (!worldsOk)
  {
    Err("cannot advertise /gazebo/worlds (is another Gazebo running?)");
    return 1;
  }

  std::vector<ignition::transport::Node::Publisher> posePubs;
  for (const auto &w : worlds)
  {
    posePubs.push_back(node.Advertise<msgs::Pose_V>(
        "/world/" + ignition::transport::TopicUtils::AsValidTopic(w->name) + "/pose/info"));
  }

  std::thread stepper([&worlds, &posePubs, stepMs]
  {
    using Clock = std::chrono::steady_clock;
    auto lastPublish = Clock::now();
    while (gRunning)
    {
      for (auto &w : worlds)
        w->Step();
      if (Clock::now() - lastPublish >= std::chrono::milliseconds(20))
      {
        lastPublish = Clock::now();
        for (size_t i = 0; i < worlds.size(); ++i)
        {
          msgs::Pose_V poses;
          worlds[i]->FillPoses(poses);
          posePubs[i].Publish(poses);
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(stepMs));
    }
  });
  std::cout << "ready" << std::endl;
  ignition::transport::waitForShutdown();
  gRunning = false;
  stepper.join();
  return 0;
}
