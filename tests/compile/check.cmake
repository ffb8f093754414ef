# ctest curve_types: compiles tests/compile/curve_types.c twice (see there).
#   cmake -DCC=<compiler> -DSRC=<curve_types.c> -DINC="<dir>;<dir>" -DOUT=<dir> -P check.cmake
set(flags -std=c11 -Wall -Wextra -Werror -Werror=incompatible-pointer-types -D_GNU_SOURCE -c)
foreach(d IN LISTS INC)
  list(APPEND flags -I${d})
endforeach()
execute_process(COMMAND ${CC} ${flags} ${SRC} -o ${OUT}/curve_types_match.o
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "curve_types: the positive control (matching curves) does not build:\n${out}")
endif()
message(STATUS "curve_types: BLS12-381 handles to BLS12-381 functions build")
execute_process(COMMAND ${CC} ${flags} -DCUZK_GIVE_BN254 ${SRC} -o ${OUT}/curve_types_mismatch.o
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "curve_types: BN254 handles given to BLS12-381 functions BUILD: the curves' types are not distinct")
endif()
string(REGEX MATCHALL "incompatible pointer type" hits "${out}")
list(LENGTH hits n)
if(n LESS 3)
  message(FATAL_ERROR "curve_types: the BN254 build failed, but not (only) for the three mismatched handles "
                      "(${n} incompatible pointer types):\n${out}")
endif()
message(STATUS "curve_types: BN254 handles to BLS12-381 functions are refused (${n} incompatible pointer types)")
