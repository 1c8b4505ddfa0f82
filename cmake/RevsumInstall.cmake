# Installation, the CMake package, the pkg-config file and the Debian package (CPack).
#
#   cmake --install build --prefix P     P/bin/revsum, P/share/revsum/ (models and seeds),
#                                        P/share/man/man1/revsum.1, bash and zsh completion,
#                                        P/share/doc/revsum/{LICENSE,copyright},
#                                        P/include/revsum/, P/lib/librevsum_<stage>.a,
#                                        P/lib/cmake/revsum/ (find_package(revsum) -> revsum::<stage>),
#                                        P/lib/pkgconfig/revsum.pc
#   cd build && cpack -G DEB             revsum_<version>_<arch>.deb (binary + models)
#
# The installed binary finds P/share/revsum from its own location (include/revsum/models.h).

include(CMakePackageConfigHelpers)

set(REVSUM_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/revsum")
set(REVSUM_DATA_DIR "${CMAKE_INSTALL_DATADIR}/revsum")

# ---- The binary and the data it needs ----
install(TARGETS revsum RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)

# The fetched model files are git-ignored and made by scripts/setup; a package without them cannot
# embed or count tokens, so say so at configure time.
foreach(model use-lite tiktoken)
  if(NOT EXISTS "${CMAKE_SOURCE_DIR}/models/${model}")
    message(WARNING "models/${model}/ is missing (run scripts/setup): the install will lack it")
  endif()
endforeach()
install(FILES "${CMAKE_SOURCE_DIR}/models/use-lite.manifest"
              "${CMAKE_SOURCE_DIR}/models/tiktoken.manifest"
              "${CMAKE_SOURCE_DIR}/models/opinion.manifest"
        DESTINATION "${REVSUM_DATA_DIR}" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
        COMPONENT runtime)
# FILE_PERMISSIONS: the fetch scripts leave some model files unreadable to other users.
install(DIRECTORY "${CMAKE_SOURCE_DIR}/models/seeds" "${CMAKE_SOURCE_DIR}/models/fragments"
                  "${CMAKE_SOURCE_DIR}/models/polarity"
                  "${CMAKE_SOURCE_DIR}/models/opinion"
                  "${CMAKE_SOURCE_DIR}/models/use-lite"
                  "${CMAKE_SOURCE_DIR}/models/tiktoken"
        DESTINATION "${REVSUM_DATA_DIR}" OPTIONAL
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
        DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                              WORLD_READ WORLD_EXECUTE
        COMPONENT runtime)

# ---- The man page, shell completion, licence and notices ----
# The man page is made from the built binary's --help (scripts/make-man, help2man), so it lists
# exactly the commands and options the binary has.
find_program(REVSUM_HELP2MAN help2man)
if(REVSUM_HELP2MAN)
  add_custom_command(OUTPUT "${CMAKE_BINARY_DIR}/revsum.1"
      COMMAND "${CMAKE_SOURCE_DIR}/scripts/make-man" "$<TARGET_FILE:revsum>"
              "${CMAKE_BINARY_DIR}/revsum.1"
      DEPENDS revsum "${CMAKE_SOURCE_DIR}/scripts/make-man" VERBATIM)
  add_custom_target(man ALL DEPENDS "${CMAKE_BINARY_DIR}/revsum.1")
  install(FILES "${CMAKE_BINARY_DIR}/revsum.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1"
          COMPONENT runtime)
else()
  message(WARNING "help2man not found (scripts/setup installs it): the install will lack the "
                  "man page")
endif()
install(FILES "${CMAKE_SOURCE_DIR}/scripts/completion/revsum.bash"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions" RENAME revsum
        COMPONENT runtime)
install(FILES "${CMAKE_SOURCE_DIR}/scripts/completion/_revsum"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions" COMPONENT runtime)
# LICENSE: revsum's own (MIT); copyright: Debian's machine-readable form, with the model files'
# and compiled-in libraries' licences.
install(FILES "${CMAKE_SOURCE_DIR}/LICENSE" "${CMAKE_SOURCE_DIR}/cmake/copyright"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT runtime)

# ---- The libraries for other C++ projects ----
set(revsum_libs)
foreach(stage ${REVSUM_STAGES})
  list(APPEND revsum_libs revsum_${stage})
endforeach()
install(TARGETS ${revsum_libs} EXPORT revsumTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT development
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY "${CMAKE_SOURCE_DIR}/include/revsum" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        COMPONENT development FILES_MATCHING PATTERN "*.h")
install(EXPORT revsumTargets NAMESPACE revsum:: DESTINATION "${REVSUM_CMAKE_DIR}"
        COMPONENT development)
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/revsumConfig.cmake.in"
    "${CMAKE_BINARY_DIR}/revsumConfig.cmake" INSTALL_DESTINATION "${REVSUM_CMAKE_DIR}")
write_basic_package_version_file("${CMAKE_BINARY_DIR}/revsumConfigVersion.cmake"
    COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/revsumConfig.cmake" "${CMAKE_BINARY_DIR}/revsumConfigVersion.cmake"
        DESTINATION "${REVSUM_CMAKE_DIR}" COMPONENT development)

# pkg-config: static libraries, so Libs lists every stage, users before the stages they use (the
# reverse of the order CMakeLists.txt defines them in, where every stage follows its dependencies),
# and Requires every library they link.
set(REVSUM_PC_LIBS "")
set(stages_reversed ${REVSUM_STAGES})
list(REVERSE stages_reversed)
foreach(stage ${stages_reversed})
  string(APPEND REVSUM_PC_LIBS " -lrevsum_${stage}")
endforeach()
file(RELATIVE_PATH REVSUM_PC_UP "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file("${CMAKE_CURRENT_LIST_DIR}/revsum.pc.in" "${CMAKE_BINARY_DIR}/revsum.pc" @ONLY)
install(FILES "${CMAKE_BINARY_DIR}/revsum.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig"
        COMPONENT development)

# ---- Debian package: the binary and its data (the runtime component) ----
set(CPACK_PACKAGE_NAME revsum)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Extractive review summariser with a SQLite store")
set(CPACK_PACKAGE_CONTACT "revsum maintainers <revsum@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_DEBIAN_PACKAGE_NAME revsum)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # revsum_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION text)
# Runtime Depends from the binary's shared libraries (ICU, SQLite, zlib, libcrypto, simdjson,
# libstdc++, libc), computed by dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
