// `posatlas export` (one figure or its numbers, headless) and `posatlas gallery` (the standard set).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace posatlas::cli {

int run_export(const std::vector<std::string>& args, std::ostream& out);
int run_gallery(const std::vector<std::string>& args, std::ostream& out);

} // namespace posatlas::cli
