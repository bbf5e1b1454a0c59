// Configure-time check (src/worker/CMakeLists.txt): the engine's headers, ABI and library work.
#include <js/Initialization.h>

int main() {
  if (!JS_Init()) return 1;
  JS_ShutDown();
  return 0;
}
