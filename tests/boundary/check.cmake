# check.cmake: ctest engine_boundary. Builds the two probes of this folder in
# the configured build tree (BUILD_DIR): the public-face control must build,
# and the file that includes an engine-internal header must fail, for that
# header's sake and no other.
foreach(variable BUILD_DIR)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "check.cmake needs -D${variable}=...")
  endif()
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target engine_boundary_public_face
  RESULT_VARIABLE public_result OUTPUT_VARIABLE public_output ERROR_VARIABLE public_output)
if(NOT public_result EQUAL 0)
  message(FATAL_ERROR "a file of the engine's public face does not build:\n${public_output}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target engine_boundary_reaches_inside
  RESULT_VARIABLE inside_result OUTPUT_VARIABLE inside_output ERROR_VARIABLE inside_output)
if(inside_result EQUAL 0)
  message(FATAL_ERROR "a transport file that includes spx_ast.h built: the engine's internals are visible")
endif()
if(NOT inside_output MATCHES "spx_ast[.]h")
  message(FATAL_ERROR "the probe failed, but not for spx_ast.h:\n${inside_output}")
endif()
message(STATUS "the public face builds; spx_ast.h is out of the transport's reach")
