# Installing codemode (docs/install.md): the shared libcodemode and its public headers, `codemode`
# and `codemode-worker`, a CMake package (find_package(codemode CONFIG) -> codemode::codemode) and a
# pkg-config file; then the Debian packages (cmake/package.cmake). Not in sanitized or fuzzing
# builds, whose binaries are for tests only.
include(CMakePackageConfigHelpers)

# ---- libcodemode.so: the public API of libcodemode, the repository tools and durable workflows,
# linked from the very objects of the static libraries the build tree's own programs link (built as
# position-independent code for this). Only what the public headers mark CODEMODE_EXPORT is
# visible. Before 1.0 a minor version may break the ABI, so the soname carries MAJOR.MINOR ----
add_library(codemode_shared SHARED $<TARGET_OBJECTS:codemode_core> $<TARGET_OBJECTS:codemode>
                                   $<TARGET_OBJECTS:codemode_repository>
                                   $<TARGET_OBJECTS:codemode_workflow>)
set_target_properties(codemode_shared PROPERTIES
  OUTPUT_NAME codemode EXPORT_NAME codemode
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
target_include_directories(codemode_shared PUBLIC
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<BUILD_INTERFACE:${CODEMODE_GENERATED_INCLUDE_DIR}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(codemode_shared
  PUBLIC nlohmann_json::nlohmann_json
  PRIVATE Threads::Threads OpenSSL::Crypto PkgConfig::RE2 PkgConfig::LIBGIT2 PkgConfig::SQLITE3
          PkgConfig::LIBPQ)
# Every symbol resolved at link time: a missing dependency fails here, not in a user's program.
target_link_options(codemode_shared PRIVATE -Wl,--no-undefined)

install(TARGETS codemode_shared EXPORT codemodeTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
                NAMELINK_COMPONENT development)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/codemode ${CODEMODE_GENERATED_INCLUDE_DIR}/codemode
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)

# ---- the worker, in libexec/codemode/MAJOR.MINOR: found relative to the library and to
# `codemode` ----
install(TARGETS codemode-worker RUNTIME DESTINATION ${CODEMODE_WORKER_INSTALL_DIR}
        COMPONENT library)
install(FILES $<TARGET_FILE:codemode-worker>.selfhosted
        DESTINATION ${CODEMODE_WORKER_INSTALL_DIR} COMPONENT library)

# ---- the command line tool, and the README's first example beside its documentation ----
install(TARGETS codemode-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
install(FILES ${PROJECT_SOURCE_DIR}/examples/catalog/total.js
              ${PROJECT_SOURCE_DIR}/examples/catalog/tools.json
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/catalog COMPONENT cli)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/examples/catalog/price.sh
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/catalog COMPONENT cli)

# ---- the CMake package and the pkg-config file ----
set(codemode_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/codemode)
install(EXPORT codemodeTargets NAMESPACE codemode:: DESTINATION ${codemode_cmake_dir}
        COMPONENT development)
# The exact nlohmann/json the library was built with: every exported function that takes a Json
# is mangled with its ABI namespace (nlohmann::json_abi_v3_11_2), so another release fails to
# link.
set(CODEMODE_NLOHMANN_JSON_VERSION ${nlohmann_json_VERSION})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/codemodeConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/generated/codemodeConfig.cmake
                              INSTALL_DESTINATION ${codemode_cmake_dir}
                              PATH_VARS CODEMODE_WORKER_INSTALL_DIR)
# Before 1.0 only the same minor version is compatible (the ABI rule above).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/generated/codemodeConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/generated/codemodeConfig.cmake
              ${PROJECT_BINARY_DIR}/generated/codemodeConfigVersion.cmake
        DESTINATION ${codemode_cmake_dir} COMPONENT development)
file(RELATIVE_PATH pc_to_prefix ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" pc_to_prefix "${pc_to_prefix}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/codemode.pc.in ${PROJECT_BINARY_DIR}/generated/codemode.pc
               @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/generated/codemode.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)

# cpack (and `make install`) install what is built: they must not rebuild the tree, which the
# packaging test runs beside the others.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

include(cmake/package.cmake)
