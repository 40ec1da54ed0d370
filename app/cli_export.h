// `posatlas export` (one figure or its numbers, headless) and `posatlas gallery` (the standard set).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace posatlas::cli {

// Creates the QApplication on the offscreen platform (unless QT_QPA_PLATFORM is set) if none exists.
void ensure_application();
// Deletes the application ensure_application() made (call once, before returning from main).
void release_application();

int run_export(const std::vector<std::string>& args, std::ostream& out);
int run_gallery(const std::vector<std::string>& args, std::ostream& out);

} // namespace posatlas::cli
