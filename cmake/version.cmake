# The version and the git commit of the sources when CMake configures ("unknown" outside a git
# checkout), compiled into one generated source (cmake/version.cpp.in) that the command line,
# the Python module and the result files read. A commit moves HEAD or the branch it names: both
# are configure dependencies, so the next build configures again and says the new commit.
set(CLEARSIM_COMMIT unknown)
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short=12 HEAD
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR} RESULT_VARIABLE _cs_rc
                  OUTPUT_VARIABLE _cs_commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_cs_rc EQUAL 0 AND _cs_commit)
    set(CLEARSIM_COMMIT ${_cs_commit})
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --symbolic-full-name HEAD
                    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                    OUTPUT_VARIABLE _cs_ref OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    foreach(_cs_name HEAD ${_cs_ref})
      execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --git-path ${_cs_name}
                      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                      OUTPUT_VARIABLE _cs_path OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
      get_filename_component(_cs_path "${_cs_path}" ABSOLUTE BASE_DIR ${PROJECT_SOURCE_DIR})
      if(EXISTS "${_cs_path}")
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_cs_path}")
      endif()
    endforeach()
  endif()
endif()
set(CLEARSIM_VERSION_CPP ${CMAKE_BINARY_DIR}/generated/version.cpp)
configure_file(${PROJECT_SOURCE_DIR}/cmake/version.cpp.in ${CLEARSIM_VERSION_CPP} @ONLY)
message(STATUS "clearsim ${PROJECT_VERSION}, commit ${CLEARSIM_COMMIT}")
