// The calls `simdenc bench` makes to simdutf (the C++ library, from the sources the `simdutf`
// crate bundles), each through one named implementation ("icelake", "haswell", "westmere",
// "arm64", "fallback") so that each of simdenc's levels is compared with simdutf's kernel for
// the same instruction set, rather than with whichever kernel simdutf's own dispatch picks.
// Plain C functions: the Rust side (cli/src/bench/simdutf.rs) declares them.

#include <cstring>
#include <string>

#include "simdutf.h"

extern "C" {

// The implementation called `name`, if simdutf has it and this CPU can run it; else null.
const void *simdenc_simdutf_implementation(const char *name) {
  const simdutf::implementation *imp =
      simdutf::get_available_implementations()[std::string(name)];
  if (imp == nullptr || !imp->supported_by_runtime_system()) {
    return nullptr;
  }
  return imp;
}

const char *simdenc_simdutf_version(void) { return SIMDUTF_VERSION; }

static const simdutf::implementation *as_imp(const void *imp) {
  return static_cast<const simdutf::implementation *>(imp);
}

bool simdenc_simdutf_validate_utf8(const void *imp, const char *buf, size_t len) {
  return as_imp(imp)->validate_utf8(buf, len);
}

bool simdenc_simdutf_validate_utf16le(const void *imp, const char16_t *buf, size_t len) {
  return as_imp(imp)->validate_utf16le(buf, len);
}

bool simdenc_simdutf_validate_utf16be(const void *imp, const char16_t *buf, size_t len) {
  return as_imp(imp)->validate_utf16be(buf, len);
}

// Units written, 0 if the input is not valid UTF-8.
size_t simdenc_simdutf_utf8_to_utf16le(const void *imp, const char *in, size_t len,
                                       char16_t *out) {
  return as_imp(imp)->convert_utf8_to_utf16le(in, len, out);
}

// Bytes written, 0 if the input is not valid UTF-16.
size_t simdenc_simdutf_utf16le_to_utf8(const void *imp, const char16_t *in, size_t len,
                                       char *out) {
  return as_imp(imp)->convert_utf16le_to_utf8(in, len, out);
}

size_t simdenc_simdutf_utf16be_to_utf8(const void *imp, const char16_t *in, size_t len,
                                       char *out) {
  return as_imp(imp)->convert_utf16be_to_utf8(in, len, out);
}

void simdenc_simdutf_change_endianness_utf16(const void *imp, const char16_t *in, size_t len,
                                             char16_t *out) {
  as_imp(imp)->change_endianness_utf16(in, len, out);
}

} // extern "C"
