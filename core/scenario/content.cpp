// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario/content.h"

#include "scenario/content_file.h"
#include "scenario/rng.h"

#include <algorithm>
#include <utility>

namespace posatlas {
namespace {

// The seed of a token's vectors: (content seed, token hash) mixed by the counter-based generator.
std::uint64_t token_seed(const ContentParams& c, std::int64_t position)
{
    // Positions beyond the sentence (a curve asking for more than seq_len) repeat it.
    const auto n = static_cast<std::int64_t>(c.tokens.size());
    const std::string& token = c.tokens[static_cast<std::size_t>(((position % n) + n) % n)];
    return rng::hash(c.seed, rng::kTokenContent, fnv1a64(token));
}

// Generated content (seeded or a sentence's) for n rows in blocks of 64: each block generated row by
// row into a row-major buffer of its thread and handed to use(r0, nr, buf) while in L1. Writing rows
// straight into a column-major matrix strode across its columns (a 16384-row chunk of keys: 128 kB
// between neighbours) and took a fifth of a CoPE curve's time. Parallel (OpenMP) when large.
template <typename PositionAt, typename Use>
void generated_blocks(const ContentParams& c, bool key, int dim, std::int64_t n, PositionAt position_at,
                      Use use)
{
    constexpr std::int64_t kBlock = 64;
    const std::int64_t blocks = (n + kBlock - 1) / kBlock;
#pragma omp parallel if (n * dim > 16384)
    {
        Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> buf(kBlock, dim);
#pragma omp for schedule(static)
        for (std::int64_t b = 0; b < blocks; ++b) {
            const std::int64_t r0 = b * kBlock, nr = std::min(kBlock, n - r0);
            for (std::int64_t r = 0; r < nr; ++r)
                content_vector_into(c, key, dim, position_at(r0 + r), buf.row(r).data());
            use(r0, nr, buf);
        }
    }
}

// One position's vector: content_vector_into's dispatch (the streams are the query's and the key's).
Eigen::VectorXd content_vector(const ContentParams& c, int dim, std::int64_t position, std::uint64_t stream)
{
    Eigen::VectorXd v(dim);
    content_vector_into(c, stream == rng::kKeyContent, dim, position, v.data());
    return v;
}

Eigen::MatrixXd content_matrix(const ContentParams& c, int dim, const std::vector<std::int64_t>& positions,
                               std::uint64_t stream)
{
    Eigen::MatrixXd m(static_cast<Eigen::Index>(positions.size()), dim);
    const auto n = static_cast<std::int64_t>(positions.size());
    if (c.from_files()) {
        // The file's matrix is looked up (or loaded, which may throw) here, not inside the parallel loop.
        ContentParams resolved = c;
        const bool key = stream == rng::kKeyContent;
        ContentFile& f = key ? resolved.keys : resolved.queries;
        if (!f.data)
            f.data = load_content_file(f, key ? "keys" : "queries");
        Eigen::VectorXd x(dim);
        for (std::int64_t r = 0; r < n; ++r) {
            content_file_row_into(resolved, key, dim, positions[static_cast<std::size_t>(r)], x.data());
            m.row(r) = x.transpose();
        }
        return m;
    }
    if (content_is_position_independent(c)) {
        // Position-independent content (ones, zero, fixed): one vector, generated once and repeated.
        // Drawing the fixed vector's normals again for every row cost ~0.3 s for a 4096-key curve.
        if (n > 0)
            m.rowwise() = content_vector(c, dim, positions.front(), stream).transpose();
        return m;
    }
    generated_blocks(
        c, stream == rng::kKeyContent, dim, n,
        [&](std::int64_t r) { return positions[static_cast<std::size_t>(r)]; },
        [&](std::int64_t r0, std::int64_t nr, const auto& buf) { m.middleRows(r0, nr) = buf.topRows(nr); });
    return m;
}

} // namespace

Eigen::VectorXd content_query(const ContentParams& c, int dim, std::int64_t position)
{
    return content_vector(c, dim, position, rng::kQueryContent);
}

Eigen::VectorXd content_key(const ContentParams& c, int dim, std::int64_t position)
{
    return content_vector(c, dim, position, rng::kKeyContent);
}

Eigen::MatrixXd content_queries(const ContentParams& c, int dim, const std::vector<std::int64_t>& positions)
{
    return content_matrix(c, dim, positions, rng::kQueryContent);
}

Eigen::MatrixXd content_keys(const ContentParams& c, int dim, const std::vector<std::int64_t>& positions)
{
    return content_matrix(c, dim, positions, rng::kKeyContent);
}

void content_key_dots(const ContentParams& c, int dim, std::int64_t a, std::int64_t b, const double* q,
                      double* out)
{
    const std::int64_t n = b - a;
    if (n <= 0)
        return;
    const Eigen::Map<const Eigen::VectorXd> qv(q, dim);
    if (content_is_position_independent(c)) { // one key for every position: one product
        std::fill(out, out + n, content_key(c, dim, a).dot(qv));
        return;
    }
    if (c.from_files()) { // the file's rows, looked up (or loaded) by content_matrix
        std::vector<std::int64_t> at(static_cast<std::size_t>(n));
        for (std::int64_t t = 0; t < n; ++t)
            at[static_cast<std::size_t>(t)] = a + t;
        Eigen::Map<Eigen::VectorXd>(out, n).noalias() = content_keys(c, dim, at) * qv;
        return;
    }
    // Each block of generated keys multiplied by q while in L1: the CoPE stream asked for a column-major
    // 16384 x d matrix per piece only to multiply it by q.
    generated_blocks(
        c, true, dim, n, [a](std::int64_t r) { return a + r; },
        [&](std::int64_t r0, std::int64_t nr, const auto& buf) {
            Eigen::Map<Eigen::VectorXd>(out + r0, nr).noalias() = buf.topRows(nr) * qv;
        });
}

void content_vector_into(const ContentParams& c, bool key, int dim, std::int64_t position, double* out)
{
    if (c.from_files()) {
        content_file_row_into(c, key, dim, position, out);
        return;
    }
    if (!c.tokens.empty()) {
        const std::uint64_t seed = token_seed(c, position);
        rng::normals(seed, key ? rng::kKeyContent : rng::kQueryContent, 0, dim, out);
        return;
    }
    switch (c.kind) {
    case ContentKind::Ones: std::fill(out, out + dim, 1.0); return;
    case ContentKind::Zero: std::fill(out, out + dim, 0.0); return;
    case ContentKind::Fixed:
    case ContentKind::Random: {
        const std::uint64_t stream = c.kind == ContentKind::Fixed ? rng::kFixedContent
                                     : key                        ? rng::kKeyContent
                                                                  : rng::kQueryContent;
        const std::int64_t at = c.kind == ContentKind::Fixed ? 0 : position;
        rng::normals(c.seed, stream, static_cast<std::uint64_t>(at) * static_cast<std::uint64_t>(dim), dim,
                     out);
        return;
    }
    }
}

bool content_is_position_independent(const ContentParams& c)
{
    return !c.from_files() && c.tokens.empty() && c.kind != ContentKind::Random;
}

std::uint64_t fnv1a64(std::string_view bytes)
{
    std::uint64_t h = 14695981039346656037ULL;
    for (const char ch : bytes) {
        h ^= static_cast<unsigned char>(ch);
        h *= 1099511628211ULL;
    }
    return h;
}

namespace {

// The code point of the UTF-8 sequence at text[i] and its length; a byte that does not start a valid
// sequence is returned as itself with length 1.
std::pair<char32_t, std::size_t> decode_utf8(std::string_view text, std::size_t i)
{
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c0 = b(i);
    const auto continuation = [&](std::size_t k) { return k < text.size() && (b(k) & 0xC0) == 0x80; };
    if (c0 < 0x80)
        return {c0, 1};
    if ((c0 & 0xE0) == 0xC0 && continuation(i + 1))
        return {static_cast<char32_t>(((c0 & 0x1F) << 6) | (b(i + 1) & 0x3F)), 2};
    if ((c0 & 0xF0) == 0xE0 && continuation(i + 1) && continuation(i + 2))
        return {static_cast<char32_t>(((c0 & 0x0F) << 12) | ((b(i + 1) & 0x3F) << 6) | (b(i + 2) & 0x3F)), 3};
    if ((c0 & 0xF8) == 0xF0 && continuation(i + 1) && continuation(i + 2) && continuation(i + 3))
        return {static_cast<char32_t>(((c0 & 0x07) << 18) | ((b(i + 1) & 0x3F) << 12) |
                                      ((b(i + 2) & 0x3F) << 6) | (b(i + 3) & 0x3F)),
                4};
    return {c0, 1};
}

bool is_space(char32_t u)
{
    return u == ' ' || u == '\t' || u == '\n' || u == '\r' || u == '\v' || u == '\f' || u == 0x00A0 ||
           u == 0x3000;
}

// Characters written without spaces between words: each one is a token.
bool is_cjk(char32_t u)
{
    return (u >= 0x4E00 && u <= 0x9FFF)      // CJK Unified Ideographs
           || (u >= 0x3400 && u <= 0x4DBF)   // Extension A
           || (u >= 0x20000 && u <= 0x3134F) // Extensions B to G
           || (u >= 0xF900 && u <= 0xFAFF)   // Compatibility Ideographs
           || (u >= 0x3001 && u <= 0x30FF)   // CJK punctuation, hiragana, katakana
           || (u >= 0xFF01 && u <= 0xFF60);  // full-width forms (，！？)
}

} // namespace

std::vector<std::string> tokenize_text(std::string_view text)
{
    std::vector<std::string> tokens;
    std::string word;
    const auto flush = [&] {
        if (!word.empty())
            tokens.push_back(std::move(word));
        word.clear();
    };
    for (std::size_t i = 0; i < text.size();) {
        const auto [u, len] = decode_utf8(text, i);
        if (is_space(u)) {
            flush();
        } else if (is_cjk(u)) {
            flush();
            tokens.emplace_back(text.substr(i, len));
        } else {
            word.append(text.substr(i, len));
        }
        i += len;
    }
    flush();
    return tokens;
}

void set_content_text(ContentParams& c, std::string text)
{
    c.tokens = tokenize_text(text);
    c.text = std::move(text);
}

} // namespace posatlas
