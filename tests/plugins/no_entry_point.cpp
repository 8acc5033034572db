// A shared library without the entry point.
extern "C" __attribute__((visibility("default"))) int something_else() { return 42; }
