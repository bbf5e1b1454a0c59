# The Debian packages (`cpack --config build/CPackConfig.cmake`, scripts/package; docs/install.md):
#   libcodemode0.1   the shared library and the worker it runs (libexec/codemode/0.1)
#   codemode         the command line tool (and the README's first example in its docs)
#   libcodemode-dev  the headers, the CMake package and the pkg-config file
# The shared library and executable dependencies are found by dpkg-shlibdeps; the headers' own
# (nlohmann/json) is declared by hand.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME codemode)
set(CPACK_PACKAGE_VENDOR "codemode")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "runs small JavaScript programs in a confined worker that can only call the tools its host allowed")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # keeps each ELF file's build id, which `codemode --version` shows
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL library cli development)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "codemode developers <codemode@codemode.invalid>")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)

set(codemode_library_package libcodemode${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
set(codemode_exact_version "${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}")

set(CPACK_DEBIAN_LIBRARY_PACKAGE_NAME ${codemode_library_package})
set(CPACK_DEBIAN_LIBRARY_PACKAGE_SECTION libs)
# A shlibs file for packages built against it, and the ldconfig trigger.
set(CPACK_DEBIAN_LIBRARY_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_COMPONENT_LIBRARY_DESCRIPTION
    "codemode library and sandboxed worker\n The shared libcodemode and codemode-worker, the confined process (SpiderMonkey 102, seccomp, rlimits, no-new-privs) that runs each program.")

set(CPACK_DEBIAN_CLI_PACKAGE_NAME codemode)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_CLI_PACKAGE_DEPENDS "${codemode_library_package} (= ${codemode_exact_version})")
set(CPACK_COMPONENT_CLI_DESCRIPTION
    "codemode command line tool and MCP server\n codemode run, codemode mcp (stdio and HTTP), codemode workflow and codemode docker.")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libcodemode-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "${codemode_library_package} (= ${codemode_exact_version}), nlohmann-json3-dev (>= ${CODEMODE_NLOHMANN_JSON_VERSION}), nlohmann-json3-dev (<< ${CODEMODE_NLOHMANN_JSON_VERSION}.~)")
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION
    "codemode library: development files\n Headers, the CMake package (find_package(codemode CONFIG)) and the pkg-config file.")

include(CPack)
