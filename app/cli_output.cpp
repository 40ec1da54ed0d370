// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_output.h"

namespace posatlas::cli::quantity_kernels {

// --format, else the extension of --out FILE (.csv), else JSON.
Format format_of(const Options& o)
{
    if (o.has("format"))
        return *o.choice("format") == "csv" ? Format::Csv : Format::Json;
    const std::string path = o.text("out").value_or("-");
    return path.size() > 4 && path.compare(path.size() - 4, 4, ".csv") == 0 ? Format::Csv : Format::Json;
}

// JSON numbers follow the same policy as CSV (number_text.h): 1e6 is 1000000, 0.1 is 0.1.
void write_json(std::ostream& out, const nlohmann::json& j)
{
    std::string text;
    append_json_text(text, j);
    text += '\n';
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

} // namespace posatlas::cli::quantity_kernels
