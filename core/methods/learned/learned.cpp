// SPDX-License-Identifier: GPL-3.0-or-later
#include "methods/learned/learned.h"

#include "io/safetensors.h"
#include "scenario/rng.h"
#include "scenario/validation.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace posatlas {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what)
{
    throw LearnedTableError("cannot load position table '" + quote_input(path, 200) + "': " + what);
}

std::string_view trim(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

std::string read_file_bytes(const std::string& path)
{
    // A table holds at most kMaxMatrixElements doubles (512 MiB as .npy float64); the file itself must stay
    // within half the memory budget, since the parsed table needs as much again.
    const std::int64_t cap = kMemoryBudgetBytes / 2 + (std::int64_t{1} << 16);
    try {
        return read_input_file(path, cap);
    } catch (const InputFileError& e) {
        // read_input_file() says "PATH: reason"; keep the reason under this loader's prefix.
        const std::string what = e.what();
        fail(path, what.rfind(path + ": ", 0) == 0 ? what.substr(path.size() + 2) : what);
    }
}

// Parses a whole field as a number. Returns false for anything else (text, trailing junk, empty).
bool parse_number(std::string_view field, double& value)
{
    if (!field.empty() && field.front() == '+')
        field.remove_prefix(1);
    if (field.empty())
        return false;
    const auto* end = field.data() + field.size();
    const auto result = std::from_chars(field.data(), end, value);
    return result.ec == std::errc() && result.ptr == end;
}

std::vector<std::string_view> split_commas(std::string_view line)
{
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    while (true) {
        const auto comma = line.find(',', start);
        fields.push_back(
            trim(line.substr(start, comma == std::string_view::npos ? line.npos : comma - start)));
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return fields;
}

Eigen::MatrixXd parse_csv(std::string_view bytes, const std::string& path)
{
    std::vector<double> values;
    std::size_t cols = 0;
    std::size_t header_cols = 0;
    std::int64_t header_line = 0;
    std::int64_t first_data_line = 0;
    std::int64_t rows = 0;
    std::int64_t line_no = 0;
    bool seen_first = false;

    std::size_t pos = 0;
    while (pos <= bytes.size()) {
        const auto nl = bytes.find('\n', pos);
        const std::string_view raw(bytes.data() + pos, (nl == std::string::npos ? bytes.size() : nl) - pos);
        pos = (nl == std::string::npos) ? bytes.size() + 1 : nl + 1;
        ++line_no;
        const std::string_view line = trim(raw);
        if (line.empty() || line.front() == '#')
            continue;
        const auto fields = split_commas(line);
        const std::string where = "line " + std::to_string(line_no);

        std::vector<double> row(fields.size());
        std::size_t numeric = 0;
        for (std::size_t c = 0; c < fields.size(); ++c)
            numeric += parse_number(fields[c], row[c]) ? 1 : 0;

        if (!seen_first) {
            seen_first = true;
            if (numeric == 0) {
                // A header row: column names, no numbers. Data starts on a later line.
                header_cols = fields.size();
                header_line = line_no;
                continue;
            }
        }
        for (std::size_t c = 0; c < fields.size(); ++c) {
            double v = 0.0;
            const std::string col = ", column " + std::to_string(c + 1);
            if (fields[c].empty())
                fail(path, where + col + ": empty value");
            if (!parse_number(fields[c], v))
                fail(path, where + col + ": '" + quote_input(fields[c]) + "' is not a number");
            if (!std::isfinite(v))
                fail(path, where + col + ": value '" + quote_input(fields[c]) +
                               "' is not finite (NaN and infinity are rejected)");
        }
        if (cols == 0) {
            cols = fields.size();
            first_data_line = line_no;
            if (header_cols != 0 && header_cols != cols)
                fail(path, "the header on line " + std::to_string(header_line) + " has " +
                               std::to_string(header_cols) + " columns but the data row on " + where +
                               " has " + std::to_string(cols));
        } else if (fields.size() != cols) {
            fail(path, where + " has " + std::to_string(fields.size()) + " values, expected " +
                           std::to_string(cols) + " as on line " + std::to_string(first_data_line) +
                           " (ragged rows)");
        }
        if (static_cast<std::int64_t>(values.size() + cols) > kMaxMatrixElements)
            fail(path, "more than " + std::to_string(kMaxMatrixElements) + " values");
        values.insert(values.end(), row.begin(), row.end());
        ++rows;
    }
    if (rows == 0)
        fail(path, "no data rows");
    Eigen::MatrixXd table(rows, static_cast<Eigen::Index>(cols));
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            table(r, static_cast<Eigen::Index>(c)) = values[static_cast<std::size_t>(r) * cols + c];
    return table;
}

// ---- .npy (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html)

std::uint64_t read_le(const unsigned char* p, int bytes)
{
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
}

// The text value following 'key': in the header dict, up to the next top-level ',' or '}'.
std::string_view dict_value(const std::string& path, std::string_view header, std::string_view key)
{
    // Built with append(): GCC 12 -O2 warns falsely (-Wrestrict) on "literal" + std::string(...).
    const std::string quoted1 = std::string(1, '\'').append(key).append(1, '\'');
    const std::string quoted2 = std::string(1, '"').append(key).append(1, '"');
    auto at = header.find(quoted1);
    std::size_t len = quoted1.size();
    if (at == std::string_view::npos) {
        at = header.find(quoted2);
        len = quoted2.size();
    }
    if (at == std::string_view::npos)
        fail(path, "the .npy header has no '" + std::string(key) + "' entry");
    auto p = header.find(':', at + len);
    if (p == std::string_view::npos)
        fail(path, "malformed .npy header near '" + quote_input(key) + "'");
    ++p;
    int depth = 0;
    std::size_t end = p;
    for (; end < header.size(); ++end) {
        const char ch = header[end];
        if (ch == '(')
            ++depth;
        else if (ch == ')')
            --depth;
        else if ((ch == ',' || ch == '}') && depth == 0)
            break;
    }
    return trim(header.substr(p, end - p));
}

Eigen::MatrixXd parse_npy(std::string_view bytes, const std::string& path)
{
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    static constexpr char kMagic[] = "\x93NUMPY";
    if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0)
        fail(path, "not a .npy file (missing the \\x93NUMPY magic)");
    const int major = data[6];
    std::size_t header_start = 0;
    std::uint64_t header_len = 0;
    if (major == 1) {
        header_len = read_le(data + 8, 2);
        header_start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12)
            fail(path, "truncated .npy preamble");
        header_len = read_le(data + 8, 4);
        header_start = 12;
    } else {
        fail(path,
             "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(data[7]));
    }
    if (header_len > bytes.size() - header_start)
        fail(path, "truncated .npy header (needs " + std::to_string(header_len) + " bytes, file has " +
                       std::to_string(bytes.size() - header_start) + ")");
    const std::string_view header(bytes.data() + header_start, static_cast<std::size_t>(header_len));

    std::string_view descr = dict_value(path, header, "descr");
    if (descr.size() >= 2 && (descr.front() == '\'' || descr.front() == '"'))
        descr = descr.substr(1, descr.size() - 2);
    int item = 0;
    if (descr == "<f8")
        item = 8;
    else if (descr == "<f4")
        item = 4;
    else if (descr == "<f2")
        item = 2; // float16, widened exactly (half_to_float)
    else
        fail(path, "unsupported dtype '" + quote_input(descr) +
                       "'; expected little-endian float64 '<f8', float32 '<f4' or float16 '<f2'");

    const std::string_view order = dict_value(path, header, "fortran_order");
    bool fortran = false;
    if (order == "True")
        fortran = true;
    else if (order != "False")
        fail(path, "malformed fortran_order '" + quote_input(order) + "'");

    std::string_view shape = dict_value(path, header, "shape");
    if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')')
        fail(path, "malformed shape '" + quote_input(shape) + "'");
    std::vector<std::int64_t> dims;
    for (auto field : split_commas(shape.substr(1, shape.size() - 2))) {
        if (field.empty())
            continue; // the trailing comma of "(5,)"
        std::int64_t v = -1;
        const auto r = std::from_chars(field.data(), field.data() + field.size(), v);
        if (r.ec != std::errc() || r.ptr != field.data() + field.size() || v < 0)
            fail(path, "malformed shape '" + quote_input(shape) + "'");
        dims.push_back(v);
    }
    if (dims.size() != 2)
        fail(path, "expected a 2-D array (positions x dimensions), got shape " + quote_input(shape));
    const std::int64_t rows = dims[0];
    const std::int64_t cols = dims[1];
    if (rows < 1 || cols < 1)
        fail(path, "the array is empty (shape " + quote_input(shape) + ")");
    if (rows > kMaxMatrixElements / cols)
        fail(path, "the array has more than " + std::to_string(kMaxMatrixElements) + " values");

    const std::size_t data_start = header_start + static_cast<std::size_t>(header_len);
    const std::uint64_t needed = static_cast<std::uint64_t>(rows * cols) * static_cast<std::uint64_t>(item);
    const std::uint64_t available = bytes.size() - data_start;
    if (available < needed)
        fail(path, "truncated data: shape " + quote_input(shape) + " of " + quote_input(descr) + " needs " +
                       std::to_string(needed) + " bytes but only " + std::to_string(available) +
                       " follow the header");

    Eigen::MatrixXd table(rows, cols);
    const unsigned char* p = data + data_start;
    for (std::int64_t k = 0; k < rows * cols; ++k, p += item) {
        double v = 0.0;
        if (item == 8) {
            const std::uint64_t bits = read_le(p, 8);
            std::memcpy(&v, &bits, 8);
        } else if (item == 2) {
            v = half_to_float(static_cast<std::uint16_t>(read_le(p, 2)));
        } else {
            const auto bits = static_cast<std::uint32_t>(read_le(p, 4));
            float f = 0.0f;
            std::memcpy(&f, &bits, 4);
            v = f;
        }
        const std::int64_t r = fortran ? k % rows : k / cols;
        const std::int64_t c = fortran ? k / rows : k % cols;
        if (!std::isfinite(v))
            fail(path, "value at row " + std::to_string(r) + ", column " + std::to_string(c) +
                           " is not finite (NaN and infinity are rejected)");
        table(r, c) = v;
    }
    return table;
}

double seeded_value(const LearnedParams& params, std::int64_t position, int column)
{
    const auto index = static_cast<std::uint64_t>(position) * static_cast<std::uint64_t>(params.dim) +
                       static_cast<std::uint64_t>(column);
    return rng::normal(params.seed, rng::kLearnedTable, index) * params.stddev;
}

} // namespace

LearnedTable::LearnedTable(Eigen::MatrixXd table, std::string source)
    : m_table(std::move(table)), m_source(std::move(source))
{
}

LearnedTable LearnedTable::seeded(const LearnedParams& params)
{
    LearnedParams p = params;
    p.table_path.clear(); // seeded() never reads the file, so the size check must apply
    p.table_tensor.clear();
    validate(p);
    Eigen::MatrixXd table(p.trained_length, p.dim);
#pragma omp parallel for schedule(static)
    for (std::int64_t r = 0; r < p.trained_length; ++r)
        for (int c = 0; c < p.dim; ++c)
            table(r, c) = seeded_value(p, r, c);
    return LearnedTable(std::move(table), "seed " + std::to_string(p.seed));
}

std::optional<Eigen::VectorXd> LearnedTable::seeded_row(const LearnedParams& params, std::int64_t position)
{
    LearnedParams p = params;
    p.table_path.clear();
    p.table_tensor.clear();
    validate(p);
    if (position < 0 || position >= p.trained_length)
        return std::nullopt;
    Eigen::VectorXd row(p.dim);
    for (int c = 0; c < p.dim; ++c)
        row[c] = seeded_value(p, position, c);
    return row;
}

LearnedTable LearnedTable::load(const std::string& path, const std::string& tensor)
{
    if (ends_with_ci(path, ".safetensors") || ends_with_ci(path, ".json"))
        return load_safetensors_table(path, tensor);
    if (!ends_with_ci(path, ".csv") && !ends_with_ci(path, ".npy"))
        fail(path, "unknown file type; expected a .csv, .npy or .safetensors file (or a "
                   "model.safetensors.index.json)");
    if (!tensor.empty())
        fail(path, "a tensor name ('" + quote_input(tensor) +
                       "') applies only to a .safetensors checkpoint, not to a "
                       ".csv or .npy table");
    const std::string bytes = read_file_bytes(path);
    return parse(bytes, path);
}

LearnedTable LearnedTable::parse(std::string_view bytes, const std::string& name)
{
    if (ends_with_ci(name, ".csv"))
        return LearnedTable(parse_csv(bytes, name), name);
    if (ends_with_ci(name, ".npy"))
        return LearnedTable(parse_npy(bytes, name), name);
    fail(name, "unknown file type; expected a .csv or .npy file");
}

LearnedTable LearnedTable::load_safetensors_table(const std::string& path, const std::string& tensor)
{
    SafetensorsCatalog cat;
    try {
        cat = read_safetensors(path);
    } catch (const SafetensorsError& e) {
        throw LearnedTableError(std::string("cannot load position table: ") + e.what());
    }
    const SafetensorsTensor* t = nullptr;
    if (tensor.empty()) {
        t = find_known_tensor(cat, "learned");
        if (!t) {
            std::string others;
            for (const KnownPositionTensor& k : known_position_tensors())
                if (k.method != "learned" && cat.find(k.name))
                    others += "; it has " + std::string(k.family) + "'s " + std::string(k.name) +
                              " (method " + std::string(k.method) + "), which --tensor can name";
            fail(path,
                 "no learned position table of a known architecture (GPT-2 wpe.weight, BERT "
                 "embeddings.position_embeddings.weight, OPT decoder.embed_positions.weight, with or without "
                 "their model prefix)" +
                     others + ". Name one with --tensor; tensors: " + cat.listing());
        }
    } else if (!(t = cat.find(tensor))) {
        fail(path, "no tensor '" + quote_input(tensor, 120) + "'; tensors: " + cat.listing());
    }
    const std::string who = "tensor '" + quote_input(t->name, 120) + "'";
    const auto matrix = t->matrix_shape();
    if (!matrix)
        fail(path, who + " has shape " + t->shape_text() +
                       "; a position table is 2-D (positions x dimensions), or [1, positions, dimensions]");
    const KnownPositionTensor* known = known_position_tensor(t->name);
    const int offset = known ? known->row_offset : 0;
    const std::int64_t rows = matrix->first - offset;
    const std::int64_t cols = matrix->second;
    if (rows < 1 || cols < 1)
        fail(path, who + " has shape " + t->shape_text() + ": no position rows" +
                       (offset ? " after the " + std::to_string(offset) + " offset rows" : std::string()));
    std::vector<double> values;
    try {
        values = read_safetensors_values(*t, kMaxMatrixElements);
    } catch (const SafetensorsError& e) {
        throw LearnedTableError(std::string("cannot load position table: ") + e.what());
    }
    Eigen::MatrixXd table(rows, cols);
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c) {
            const double v = values[static_cast<std::size_t>((r + offset) * cols + c)];
            if (!std::isfinite(v))
                fail(path, who + ": value at stored row " + std::to_string(r + offset) + ", column " +
                               std::to_string(c) + " is not finite (NaN and infinity are rejected)");
            table(r, c) = v;
        }
    LearnedTable out(std::move(table), path);
    out.m_tensor = t->name;
    out.m_row_offset = offset;
    return out;
}

LearnedTable LearnedTable::from_params(const LearnedParams& params)
{
    if (params.table_path.empty())
        return seeded(params);
    validate(params);
    return load(params.table_path, params.table_tensor);
}

LearnedShape learned_shape(const LearnedParams& params)
{
    if (params.table_path.empty()) {
        validate(params); // what seeded() checks, without building the table
        return {params.trained_length, params.dim};
    }
    const LearnedTable t = LearnedTable::from_params(params);
    return {t.trained_length(), t.dim()};
}

LearnedTable LearnedTable::from_matrix(Eigen::MatrixXd table, std::string source)
{
    if (table.rows() == 0 || table.cols() == 0)
        throw std::invalid_argument("a position table needs at least one row and one column");
    if (!table.allFinite())
        throw std::invalid_argument("a position table must not contain NaN or infinity");
    return LearnedTable(std::move(table), std::move(source));
}

std::optional<Eigen::VectorXd> LearnedTable::embedding(std::int64_t position) const
{
    if (!has(position))
        return std::nullopt;
    return Eigen::VectorXd(m_table.row(position).transpose());
}

} // namespace posatlas
