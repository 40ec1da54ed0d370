// SPDX-License-Identifier: GPL-3.0-or-later
// The user's own queries and keys: N x d matrices read from files (captured from a model's forward
// pass, for instance), used instead of the seeded content vectors by every method's logits and weights.
//
//   .npy          2-D, C or Fortran order, dtype '<f2', '<f4' or '<f8' (float16 widened exactly)
//   .csv          one row per position, as a learned table (methods/learned/learned.h)
//   .safetensors  the 2-D tensor named by ContentFile::tensor (F16, BF16, F32, F64, widened exactly;
//                 leading dimensions of 1 dropped: [1, N, d] is N x d)
// The readers are LearnedTable's: same size caps (kMaxMatrixElements values, the file within half the
// memory budget, checked before the data is read), same refusal of NaN and infinity.
//
// Rules (validate_content_files): both files or neither; no sentence beside them; each file has at
// least seq_len rows (row p is position p) and exactly as many columns as the head dimension the method
// gives its content vectors (MethodDescriptor::content_dim). A position past the last row (a curve
// asking beyond seq_len) repeats the file, as a sentence does.
//
// Loading happens once per file: a process-wide cache keyed by path, tensor and the file's
// modification time and size hands out one shared, immutable matrix; resolve_content_files() stores it
// in ContentFile::data so that kernels read rows without any lookup.
#pragma once

#include "io/input_file.h"
#include "scenario/params.h"

#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <string>

namespace posatlas {

struct ContentMatrix {
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> values; // rows = positions
    std::string source; // "q.npy" or "qk.safetensors:layer0.q"

    std::int64_t rows() const { return values.rows(); }
    int dim() const { return static_cast<int>(values.cols()); }
    // Row of `position`, wrapping past the last row.
    const double* row(std::int64_t position) const
    {
        const std::int64_t n = rows();
        return values.data() + (((position % n) + n) % n) * values.cols();
    }
};

// A queries or keys file that cannot be read: the message names the option, the path and the problem.
class ContentFileError : public InputFileError
{
public:
    using InputFileError::InputFileError;
};

// The matrix of `f` (which must not be empty), from the cache when the file has not changed since it
// was read, else read now. `role` is "queries" or "keys", for messages. Throws ContentFileError.
std::shared_ptr<const ContentMatrix> load_content_file(const ContentFile& f, const char* role);

// The same for a method's own table file (methods/table_files.h), from a cache of its own: `role` is the
// option without dashes ("key-table"), so that messages say --key-table and --key-table-tensor.
std::shared_ptr<const ContentMatrix> load_table_file(const ContentFile& f, const char* role);

// Sets c.queries.data and c.keys.data (load_content_file). No-op without files.
void resolve_content_files(ContentParams& c);

// The matrix behind f: f.data when resolved, else the cache's (loading it if needed).
const ContentMatrix& content_file_matrix(const ContentFile& f, bool key);

// Row `position` of the queries (key = false) or keys file of c into out[0 .. dim): the file's row,
// wrapping past its last row. Validation guarantees the file's width is dim; were it not, the missing
// columns would be 0 and the extra ones dropped (never a read past the row).
void content_file_row_into(const ContentParams& c, bool key, int dim, std::int64_t position, double* out);

// The width of the content vectors: the queries file's columns when c comes from files, else `fallback`
// (methods without a head dimension of their own, T5 and ALiBi, take the file's).
int content_width(const ContentParams& c, int fallback);

// The rules above, for scenario s (its content files loaded through the cache). Throws ParameterError
// naming queries, keys, text or seq_len; a file that cannot be read is a ParameterError of its option
// whose `got` is the ContentFileError's message.
void validate_content_files(const Scenario& s);

// Empties both caches (tests).
void clear_content_file_cache();

} // namespace posatlas
