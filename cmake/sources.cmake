# codemode_sources(OUT dir...) lists the .cc files of the given source folders. Each folder holds one
# layer of the data flow (see docs/architecture.md); listing by folder keeps the map and the build in step.
function(codemode_sources out)
  set(files)
  foreach(dir IN LISTS ARGN)
    file(GLOB dir_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.cc)
    list(APPEND files ${dir_files})
  endforeach()
  set(${out} ${files} PARENT_SCOPE)
endfunction()

# The core folder and its concerns: JSON, text, processes, crypto, time.
set(CODEMODE_CORE_DIRS src/core src/core/json src/core/text src/core/process src/core/crypto
                       src/core/time)

# codemode_include_view(target PRIVATE|INTERFACE folder...): the folders of src/ that a target's
# own sources (PRIVATE) or the targets that link it (INTERFACE) may include, spelled as everywhere
# ("core/json/json_text.h"), and no other folder: the include directory is a view of src/ made of
# symbolic links in the build tree, one a folder. An include that reaches across a library's
# boundary then fails to compile, instead of waiting for a review (docs/architecture.md).
function(codemode_include_view target scope)
  set(view ${PROJECT_BINARY_DIR}/include-views/${target}-${scope})
  file(REMOVE_RECURSE ${view})
  foreach(folder IN LISTS ARGN)
    if(NOT IS_DIRECTORY ${PROJECT_SOURCE_DIR}/src/${folder})
      message(FATAL_ERROR "codemode_include_view(${target}): src/${folder} is no folder")
    endif()
    get_filename_component(parent ${view}/${folder} DIRECTORY)
    file(MAKE_DIRECTORY ${parent})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/src/${folder} ${view}/${folder} SYMBOLIC)
  endforeach()
  target_include_directories(${target} ${scope} $<BUILD_INTERFACE:${view}>)
endfunction()
