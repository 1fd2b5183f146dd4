# SPDX-License-Identifier: MIT
# threadlink_generate(TARGET <target> [CONFIG <threadlink.json>] [OUTPUT_DIR <dir>]
#                     [SCOPE PRIVATE|PUBLIC|INTERFACE] [PACK <profile>...]
#                     [GENERATE_COMMAND <command>])
#
# Adds `threadlink-gen headers` as a build step of <target>: the generated headers go into
# OUTPUT_DIR (default ${CMAKE_CURRENT_BINARY_DIR}/threadlink), which becomes a private include
# directory of <target>, and <target> links threadlink::runtime. threadlink::gen is the installed
# generator (find_package) or the one this build makes (add_subdirectory, FetchContent of
# threadlink's CMakeLists.txt). The step's target is the generator's stamp, and its depfile names every input (each
# injector, manifest, vault file, asset and the folders holding them), so an edit, a new injector
# file or a new asset re-runs it, and a build with nothing changed runs nothing, with Ninja and with
# Makefiles alike. Headers whose content did not change keep their time: only what includes a
# changed header recompiles. The manifests are only read: run `threadlink-gen generate` (the
# developer step) to add entries to them.
#
# The headers are the step's byproducts, so Ninja recompiles what includes one that changed. Their
# list is <target>.threadlink-outputs in the binary directory: an installed generator fills it
# when CMake configures (`headers --list-outputs`); one this build makes, at its first run. The
# step keeps it up to date (--outputs-file), and CMake configures again whenever it changes: a
# project that gains a header (a new vault schema) builds at once, and the next build declares it.
#
# PACK <profile>... also packs those content profiles as build steps (`pack --build-step`: the
# manifests are read, nothing is written into the source tree) into OUTPUT_DIR/content/<profile>;
# the variable threadlink_content_dir_<profile> names that folder in the caller's scope. An added,
# edited or deleted asset re-packs its profile alone; an injector, vault or PO edit re-packs none.
#
# SCOPE (default PRIVATE) is how <target> gets the include directory and threadlink::runtime:
# PUBLIC for a library whose users include the generated headers too (a game's core library and
# the executables linking it), so one step serves them all.
#
# GENERATE_COMMAND is the developer step the steps' messages tell to run (entries the manifests
# have not recorded yet, a stale text table), as text: default `cmake --build <the build
# directory> --target generate`, the `generate` target of threadlink's docs/build-systems.md
# recipe (a threadlink built here puts no threadlink-gen on the PATH); give yours if it is another.
#
# CONFIG defaults to ${CMAKE_CURRENT_SOURCE_DIR}/threadlink.json.
include_guard(GLOBAL)

function(threadlink_generate)
  cmake_parse_arguments(PARSE_ARGV 0 _tl "" "TARGET;CONFIG;OUTPUT_DIR;SCOPE;GENERATE_COMMAND" "PACK")
  if(NOT _tl_TARGET)
    message(FATAL_ERROR "threadlink_generate: TARGET is required")
  endif()
  if(_tl_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "threadlink_generate: unexpected arguments: ${_tl_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET threadlink::gen)
    message(FATAL_ERROR "threadlink_generate: threadlink::gen (threadlink-gen) was not installed with this threadlink")
  endif()
  if(NOT _tl_SCOPE)
    set(_tl_SCOPE PRIVATE)
  elseif(NOT _tl_SCOPE MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
    message(FATAL_ERROR "threadlink_generate: SCOPE is PRIVATE, PUBLIC or INTERFACE, not ${_tl_SCOPE}")
  endif()
  if(NOT _tl_CONFIG)
    set(_tl_CONFIG "${CMAKE_CURRENT_SOURCE_DIR}/threadlink.json")
  endif()
  if(NOT _tl_OUTPUT_DIR)
    set(_tl_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/threadlink")
  endif()
  get_filename_component(_tl_CONFIG "${_tl_CONFIG}" ABSOLUTE)
  get_filename_component(_tl_OUTPUT_DIR "${_tl_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  get_filename_component(_tl_project "${_tl_CONFIG}" DIRECTORY)
  set(_tl_common -C "${_tl_project}" --config "${_tl_CONFIG}")
  if(NOT _tl_GENERATE_COMMAND)
    _threadlink_shell_word(_tl_build "${CMAKE_BINARY_DIR}")
    set(_tl_GENERATE_COMMAND "cmake --build ${_tl_build} --target generate")
  endif()
  set(_tl_step ${_tl_common} --generate-command "${_tl_GENERATE_COMMAND}")

  set(_tl_list "${CMAKE_CURRENT_BINARY_DIR}/${_tl_TARGET}.threadlink-outputs")
  _threadlink_declared_outputs(_tl_names "${_tl_list}" ${_tl_common})
  list(TRANSFORM _tl_names PREPEND "${_tl_OUTPUT_DIR}/" OUTPUT_VARIABLE _tl_outputs)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_tl_CONFIG}" "${_tl_list}")

  set(_tl_stamp "${_tl_OUTPUT_DIR}/.threadlink-gen.stamp")
  set(_tl_depfile "${CMAKE_CURRENT_BINARY_DIR}/${_tl_TARGET}.threadlink.d")
  # The stamp is the step's output: the generator rewrites it whenever an input changed, the
  # headers only when their content did. Touched, so that a run that changed nothing (an input
  # touched, not edited) does not leave Make re-running the step on every build.
  add_custom_command(OUTPUT "${_tl_stamp}"
    BYPRODUCTS ${_tl_outputs}
    COMMAND threadlink::gen headers ${_tl_step} -o "${_tl_OUTPUT_DIR}" --quiet
            --depfile "${_tl_depfile}" --deptarget "${_tl_stamp}" --outputs-file "${_tl_list}"
    COMMAND "${CMAKE_COMMAND}" -E touch "${_tl_stamp}"
    DEPENDS threadlink::gen "${_tl_CONFIG}"
    DEPFILE "${_tl_depfile}"
    COMMENT "threadlink-gen headers for ${_tl_TARGET}"
    VERBATIM)
  add_custom_target(${_tl_TARGET}_threadlink_headers DEPENDS "${_tl_stamp}")
  add_dependencies(${_tl_TARGET} ${_tl_TARGET}_threadlink_headers)
  target_include_directories(${_tl_TARGET} ${_tl_SCOPE} "${_tl_OUTPUT_DIR}")
  target_link_libraries(${_tl_TARGET} ${_tl_SCOPE} threadlink::runtime)
  foreach(_tl_profile IN LISTS _tl_PACK)
    _threadlink_pack(${_tl_TARGET} ${_tl_profile} "${_tl_OUTPUT_DIR}/content/${_tl_profile}" ${_tl_step})
    set(threadlink_content_dir_${_tl_profile} "${_tl_OUTPUT_DIR}/content/${_tl_profile}" PARENT_SCOPE)
  endforeach()
endfunction()

# One content profile packed into `dir` as a build step of `target`, re-run by its depfile.
function(_threadlink_pack target profile dir)
  set(_stamp "${CMAKE_CURRENT_BINARY_DIR}/${target}.${profile}.pack.stamp")
  set(_depfile "${CMAKE_CURRENT_BINARY_DIR}/${target}.${profile}.pack.d")
  add_custom_command(OUTPUT "${_stamp}"
    COMMAND threadlink::gen pack --build-step ${ARGN} --profile "${profile}" --output "${dir}"
            --quiet --no-progress --depfile "${_depfile}" --deptarget "${_stamp}" --stamp "${_stamp}"
    DEPENDS threadlink::gen
    DEPFILE "${_depfile}"
    COMMENT "threadlink-gen pack ${profile} for ${target}"
    VERBATIM)
  add_custom_target(${target}_threadlink_pack_${profile} DEPENDS "${_stamp}")
  add_dependencies(${target} ${target}_threadlink_pack_${profile})
endfunction()

# `text` as one word of a command a person types: in double quotes when it has a blank.
function(_threadlink_shell_word out text)
  if(text MATCHES "[ \t]")
    set(text "\"${text}\"")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The files `headers -o DIR` writes, relative to DIR, as the file `list` names them: an installed
# generator writes it now; a generator this build makes has not run yet, so the list starts empty
# and its first run fills it (the build then configures again).
function(_threadlink_declared_outputs out list)
  get_target_property(_imported threadlink::gen IMPORTED)
  if(_imported)
    get_target_property(_gen threadlink::gen IMPORTED_LOCATION)
    execute_process(COMMAND "${_gen}" headers ${ARGN} --list-outputs
      OUTPUT_VARIABLE _listed ERROR_VARIABLE _err RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "threadlink_generate: threadlink-gen headers --list-outputs failed:\n${_err}")
    endif()
    set(_old "")
    if(EXISTS "${list}")
      file(READ "${list}" _old)
    endif()
    if(NOT _old STREQUAL _listed)
      file(WRITE "${list}" "${_listed}")
    endif()
  elseif(NOT EXISTS "${list}")
    file(WRITE "${list}" "")
  endif()
  file(STRINGS "${list}" _names)
  set(${out} "${_names}" PARENT_SCOPE)
endfunction()
