// toml_json.cc: toml_json.h on toml++ 3 (Debian libtomlplusplus-dev).
#include "toml_json.h"

#include <toml++/toml.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

namespace {

// a string or key holding a NUL character: C strings would cut it short, so the file is refused
struct nul_in_string {
    toml::source_region where;
};

// a float that is nan or inf: JSON has no such number (jansson's json_real refuses it, and the key
// would vanish), and no setting takes one, so the file is refused
struct non_finite {
    toml::source_region where;
};

// throws nul_in_string at the first string or key with a NUL, non_finite at the first nan/inf
// (before any JSON is built)
void check_nul(const toml::node &n) {
    if (auto t = n.as_table()) {
        for (auto &&[k, v] : *t) {
            if (k.str().find('\0') != std::string_view::npos) throw nul_in_string{k.source()};
            check_nul(v);
        }
    } else if (auto a = n.as_array()) {
        for (auto &&v : *a) check_nul(v);
    } else if (auto s = n.as_string()) {
        if (s->get().find('\0') != std::string::npos) throw nul_in_string{n.source()};
    } else if (auto f = n.as_floating_point()) {
        if (!std::isfinite(f->get())) throw non_finite{n.source()};
    }
}

json_t *to_json(const toml::node &n) {
    if (auto t = n.as_table()) {
        json_t *o = json_object();
        for (auto &&[k, v] : *t) {
            json_object_set_new(o, std::string(k.str()).c_str(), to_json(v));
        }
        return o;
    }
    if (auto a = n.as_array()) {
        json_t *arr = json_array();
        for (auto &&v : *a)
            json_array_append_new(arr, to_json(v));
        return arr;
    }
    if (auto s = n.as_string()) {
        return json_stringn(s->get().data(), s->get().size());
    }
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
        check_nul(t);
        return to_json(t);
    } catch (const toml::parse_error &e) {
        const auto &src = e.source();
        std::snprintf(err, err_cap, "%s:%u:%u: %s", path, (unsigned)src.begin.line, (unsigned)src.begin.column,
                      std::string(e.description()).c_str());
    } catch (const non_finite &e) {
        std::snprintf(err, err_cap, "%s:%u:%u: nan and inf are not allowed (no setting takes them)", path,
                      (unsigned)e.where.begin.line, (unsigned)e.where.begin.column);
    } catch (const nul_in_string &e) {
        std::snprintf(err, err_cap, "%s:%u:%u: a NUL character (\\u0000) in a string or key is not allowed", path,
                      (unsigned)e.where.begin.line, (unsigned)e.where.begin.column);
    } catch (const std::exception &e) {
        std::snprintf(err, err_cap, "%s: %s", path, e.what());
    } catch (...) {
        std::snprintf(err, err_cap, "%s: cannot read", path);
    }
    return nullptr;
}
