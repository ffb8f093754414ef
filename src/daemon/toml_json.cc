// toml_json.cc: toml_json.h on toml++ 3 (Debian libtomlplusplus-dev).
#include "toml_json.h"

#include <toml++/toml.h>

#include <cstdio>
#include <sstream>
#include <string>

namespace {

json_t *to_json(const toml::node &n) {
    if (auto t = n.as_table()) {
        json_t *o = json_object();
        for (auto &&[k, v] : *t)
            json_object_set_new(o, std::string(k.str()).c_str(), to_json(v));
        return o;
    }
    if (auto a = n.as_array()) {
        json_t *arr = json_array();
        for (auto &&v : *a)
            json_array_append_new(arr, to_json(v));
        return arr;
    }
    if (auto s = n.as_string())
        return json_stringn(s->get().data(), s->get().size());
    if (auto i = n.as_integer())
        return json_integer((json_int_t)i->get());
    if (auto f = n.as_floating_point())
        return json_real(f->get());
    if (auto b = n.as_boolean())
        return json_boolean(b->get());
    std::ostringstream os;
    if (auto d = n.as_date())
        os << d->get();
    else if (auto tm = n.as_time())
        os << tm->get();
    else if (auto dt = n.as_date_time())
        os << dt->get();
    return json_string(os.str().c_str());
}

} // namespace

extern "C" json_t *toml_json_load_file(const char *path, char *err, size_t err_cap) {
    try {
        toml::table t = toml::parse_file(path);
        return to_json(t);
    } catch (const toml::parse_error &e) {
        const auto &src = e.source();
        std::snprintf(err, err_cap, "%s:%u:%u: %s", path, (unsigned)src.begin.line, (unsigned)src.begin.column,
                      std::string(e.description()).c_str());
    } catch (const std::exception &e) {
        std::snprintf(err, err_cap, "%s: %s", path, e.what());
    } catch (...) {
        std::snprintf(err, err_cap, "%s: cannot read", path);
    }
    return nullptr;
}
