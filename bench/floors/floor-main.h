/* Included (-include) when a floor is built as a function for bench/floors/swift-main.swift, with
 * -Dmain=floor_main: gives the renamed main C linkage in C++ as well. */
#ifdef __cplusplus
extern "C" int floor_main(int argc, char **argv);
#else
int floor_main(int argc, char **argv);
#endif
