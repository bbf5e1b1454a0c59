// erase_types_tool FILE: prints FILE with its types erased (worker/typescript/type_eraser.h), or
// the refusal's message on stderr and exits 1. The differential test (differential.mjs) runs it
// on each corpus program.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <variant>

#include "worker/typescript/type_eraser.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: erase_types_tool FILE\n";
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  if (!file) {
    std::cerr << "erase_types_tool: cannot read " << argv[1] << "\n";
    return 2;
  }
  std::stringstream source;
  source << file.rdbuf();
  const auto erased = codemode::worker::erase_types(source.str());
  if (const auto* refusal = std::get_if<codemode::worker::ErasureRefusal>(&erased)) {
    std::cerr << refusal->message << "\n";
    return 1;
  }
  std::cout << std::get<std::string>(erased);
  return 0;
}
