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
