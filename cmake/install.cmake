# `cmake --install build [--prefix P]` (`make install`) and `cpack` (a .deb, `make package`):
# the command line, the static library and its headers, a CMake package (find_package(clearsim),
# target clearsim::clearsim), a pkg-config file and the Python package (python/CMakeLists.txt).
# Every file is found relative to the prefix, so an install may move (docs/install.md).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS clearsim_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS clearsim EXPORT clearsimTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/clearsim
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(_cs_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/clearsim)
install(EXPORT clearsimTargets NAMESPACE clearsim:: DESTINATION ${_cs_cmake_dir})
set(CLEARSIM_WITH_HDF5 OFF)
if(HDF5_FOUND)
  set(CLEARSIM_WITH_HDF5 ON)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/clearsimConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/clearsimConfig.cmake
                              INSTALL_DESTINATION ${_cs_cmake_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/clearsimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/clearsimConfig.cmake
              ${CMAKE_BINARY_DIR}/clearsimConfigVersion.cmake
        DESTINATION ${_cs_cmake_dir})

# pkg-config: the prefix is found from the .pc file's own place (${pcfiledir}).
file(RELATIVE_PATH CLEARSIM_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" CLEARSIM_PC_TO_PREFIX "${CLEARSIM_PC_TO_PREFIX}")
set(CLEARSIM_PC_HDF5 "")
if(HDF5_FOUND)
  set(CLEARSIM_PC_HDF5 hdf5)
endif()
string(JOIN " " CLEARSIM_PC_ARCH_FLAGS ${CLEARSIM_ARCH_FLAGS})
configure_file(${PROJECT_SOURCE_DIR}/cmake/clearsim.pc.in ${CMAKE_BINARY_DIR}/clearsim.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/clearsim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# cpack: a Debian package of the same files under /usr. Its dependencies are found by
# dpkg-shlibdeps from the binaries, plus what the Python package and the headers need.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME clearsim)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "clearsim developers <clearsim@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "multibody dynamics with clearance joints, lubrication, contact and gears")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(CLEARSIM_PYTHON_MINOR)  # the module is built for this interpreter's ABI
  math(EXPR _cs_next "${CLEARSIM_PYTHON_MINOR} + 1")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "python3 (>= 3.${CLEARSIM_PYTHON_MINOR}), python3 (<< 3.${_cs_next}), python3-numpy")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "libeigen3-dev, libyaml-cpp-dev, libassimp-dev, libfcl-dev, libsuitesparse-dev, libhdf5-dev, libvtk9-dev")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
include(CPack)

# The install test: into a temporary prefix, a program built against it with find_package and
# with pkg-config, the Python package imported from it (when the module is built), the versions
# compared; and the .deb. Not for sanitizer builds: a program linking that library needs the
# sanitizers' runtime, which the package does not pass on.
if(CLEARSIM_TESTS AND NOT CLEARSIM_SANITIZE)
  add_test(NAME install.prefix
           COMMAND ${PROJECT_SOURCE_DIR}/tests/install/install_test.sh ${CMAKE_BINARY_DIR}
                   ${CMAKE_BINARY_DIR}/install_test ${CLEARSIM_PYTHON_INSTALL_DIR})
  add_test(NAME install.deb
           COMMAND ${PROJECT_SOURCE_DIR}/tests/install/deb_test.sh ${CMAKE_BINARY_DIR}
                   ${CMAKE_BINARY_DIR}/deb_test)
  set_tests_properties(install.prefix install.deb PROPERTIES RESOURCE_LOCK install)
endif()
