// CODEMODE_EXPORT marks the public API. The library is built with hidden visibility, so anything
// without this macro stays internal to libcodemode.
#ifndef CODEMODE_EXPORT_H_
#define CODEMODE_EXPORT_H_

#if defined(CODEMODE_BUILDING_LIBRARY)
#define CODEMODE_EXPORT __attribute__((visibility("default")))
#else
#define CODEMODE_EXPORT
#endif

#endif  // CODEMODE_EXPORT_H_
