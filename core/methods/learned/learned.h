// SPDX-License-Identifier: GPL-3.0-or-later
// Learned absolute position embeddings (BERT: Devlin et al. 2019; GPT-2: Radford et al. 2019): a
// table of max_position_embeddings rows, one trained vector per position, added to the token
// embedding. HF BertEmbeddings / GPT2Model: position_embeddings = nn.Embedding(max_position_embeddings,
// hidden_size), initialised N(0, initializer_range).
//
// A position at or beyond the trained length has no embedding at all (HF raises an index error): the
// table answers std::nullopt there and never invents a value (no zero padding, no wrap-around).
#pragma once

#include "io/input_file.h"
#include "scenario/params.h"

#include <Eigen/Dense>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace posatlas {

// A position table file that cannot be read: the message names the path and, for CSV, line and column.
class LearnedTableError : public InputFileError
{
public:
    using InputFileError::InputFileError;
};

class LearnedTable
{
public:
    // A seeded stand-in for a trained table: entry (p, c) = rng::normal(seed, kLearnedTable,
    // p * dim + c) * stddev (the initializer of HF BERT/GPT-2). Any row is reproducible on its own,
    // see seeded_row(). Ignores params.table_path. Throws ParameterError for invalid params.
    static LearnedTable seeded(const LearnedParams& params);

    // Row `position` of the seeded table without building the table; nullopt outside [0, trained_length).
    static std::optional<Eigen::VectorXd> seeded_row(const LearnedParams& params, std::int64_t position);

    // A user table from a file; rows = positions, columns = embedding dimensions.
    //  .csv: one row per line, comma-separated numbers; an optional first row of column names (no
    //        numbers in it); blank lines and lines starting with '#' are skipped.
    //  .npy: NumPy format v1.0/2.0/3.0, dtype '<f8', '<f4' or '<f2' (float16, widened exactly), 2-D, C order
    //  (Fortran order is also read). .safetensors, or a sharded checkpoint's index (a name ending in .json,
    //  model.safetensors.index.json):
    //        the 2-D tensor `tensor` (rows = positions; leading dimensions of 1 dropped, so that ViT's
    //        [1, 197, 768] is a 197 x 768 table), F32/F16/BF16/F64 widened exactly to double; with
    //        `tensor` empty, the first known learned position table present (known_position_tensors():
    //        GPT-2 wpe, BERT position_embeddings, OPT embed_positions). OPT's table starts at row 2
    //        (HF OPTLearnedPositionalEmbedding offset), so position p is stored row p + 2. Only the header
    //        and the tensor's own bytes are read. An unknown name lists the tensors the file has.
    // Any other extension is an error, and so is a `tensor` for a .csv or .npy file. Every problem (missing
    // file, bad magic, unsupported dtype, wrong rank, truncated data, ragged rows, text in a data row, NaN or
    // infinity, empty table, more than kMaxMatrixElements values, a device or FIFO instead of a regular file)
    // throws LearnedTableError whose message names the path and, for CSV, the line and column; quoted fields
    // are escaped (quote_input).
    static LearnedTable load(const std::string& path, const std::string& tensor = "");
    // The same parsers on bytes already in memory; `name` picks the format by its extension and is the
    // name used in messages (the fuzz targets and load() use this).
    static LearnedTable parse(std::string_view bytes, const std::string& name);

    // load(params.table_path, params.table_tensor) when a path is given, seeded(params) otherwise.
    static LearnedTable from_params(const LearnedParams& params);

    // Wraps an existing matrix (rows = positions). Throws std::invalid_argument if it is empty or not
    // finite.
    static LearnedTable from_matrix(Eigen::MatrixXd table, std::string source = "matrix");

    std::int64_t trained_length() const { return m_table.rows(); }
    int dim() const { return static_cast<int>(m_table.cols()); }
    bool has(std::int64_t position) const { return position >= 0 && position < trained_length(); }
    // The embedding of `position`, or nullopt when the table has no such row (position < 0 or
    // position >= trained_length()).
    std::optional<Eigen::VectorXd> embedding(std::int64_t position) const;
    const Eigen::MatrixXd& table() const { return m_table; }
    // "seed <n>" or the file path the table came from.
    const std::string& source() const { return m_source; }
    // For a safetensors table: the tensor read and the stored rows before position 0 (OPT: 2); else "", 0.
    const std::string& tensor() const { return m_tensor; }
    int row_offset() const { return m_row_offset; }

private:
    LearnedTable(Eigen::MatrixXd table, std::string source);
    static LearnedTable load_safetensors_table(const std::string& path, const std::string& tensor);

    Eigen::MatrixXd m_table;
    std::string m_source;
    std::string m_tensor;
    int m_row_offset = 0;
};

// The shape of the table LearnedTable::from_params(params) gives, which is the one compute_matrix uses:
// a user's table's own rows and columns (the file is loaded and checked; LearnedTableError as load()),
// else params.trained_length x params.dim (validate, ParameterError; the seeded table is not built). A
// user's table overrides params.dim and params.trained_length, which describe only the seeded stand-in.
struct LearnedShape {
    std::int64_t trained_length = 0; // rows: positions
    int dim = 0;                     // columns: embedding dimensions
};
LearnedShape learned_shape(const LearnedParams& params);

} // namespace posatlas
