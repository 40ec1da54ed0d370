// SPDX-License-Identifier: GPL-3.0-or-later
// T5 relative position buckets and per-head scalar biases, Raffel et al. 2020 ("Exploring the Limits
// of Transfer Learning with a Unified Text-to-Text Transformer", sec. 2.1), following Hugging Face
// transformers models/t5/modeling_t5.py::T5Attention._relative_position_bucket (itself adapted from
// Mesh TensorFlow transformer_layers.py):
//   relative_position = key (memory) position - query position
//   bidirectional: num_buckets /= 2; bucket += num_buckets if relative_position > 0; n = |rel|
//   causal:        n = max(-rel, 0)              (future keys all fall into bucket 0)
//   max_exact = num_buckets / 2
//   n < max_exact:  bucket += n
//   otherwise:      bucket += min(max_exact + long(log(n / max_exact) / log(max_distance / max_exact)
//                                                 * (num_buckets - max_exact)), num_buckets - 1)
//
// The log branch is evaluated in float32 exactly as HF does (relative_position.float() / max_exact,
// torch.log in float32, division by the Python double math.log(...) which PyTorch rounds to float32,
// multiplication in float32, truncation toward zero by .to(torch.long)). Bucket edges fall where the
// real-valued expression crosses an integer, so the precision decides edge cases: an exhaustive
// comparison of float32 and double over num_buckets in {8, 16, 32, 64, 128}, max_distance <= 1024, |r| < 1100
// found them to differ only at num_buckets 32 (causal) / 64 (bidirectional), max_distance 939,
// relative_position -728 (bucket 31 in float32, 30 in double). At the T5 defaults (32, 128) the two
// agree. (torch's vectorised logf may differ from libm's by one ulp, which could move such a rare edge
// again; we follow libm.)
#pragma once

#include "scenario/params.h"

#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

namespace posatlas {

// Bucket index in [0, num_buckets) of relative_position = key_pos - query_pos. Throws ParameterError
// when num_buckets / max_distance are outside validate(T5Params)'s ranges.
int t5_relative_position_bucket(std::int64_t relative_position, bool bidirectional, int num_buckets,
                                int max_distance);

// Validates params once (ParameterError), then gives the bucket of any relative position (key_pos -
// query_pos) without a check: for kernels that ask per cell or per offset, OpenMP loops among them.
class T5Bucketer
{
public:
    explicit T5Bucketer(const T5Params& params);
    int operator()(std::int64_t relative_position) const;

private:
    T5Params m_params;
};

// The same bucket for every entry of relative_positions (key_pos - query_pos): validate(params) once
// (ParameterError), then the formula per entry without a check (a series of any length, as `posatlas
// compute t5-buckets` prints it).
std::vector<int> t5_relative_position_buckets(const T5Params& params,
                                              const std::vector<std::int64_t>& relative_positions);

// Buckets against distance r = |key_pos - query_pos| (a negative entry counts as its absolute value), as
// the curve view draws them: `before` is the bucket of a key r positions before the query (relative
// position -r); `after`, for bidirectional T5 only (else empty), of a key r positions after it (+r).
// Causal T5 puts every key after the query in bucket 0, so it has no `after` series. validate(params)
// once (ParameterError).
struct T5DistanceBuckets {
    std::vector<int> before;
    std::vector<int> after;
};
T5DistanceBuckets t5_distance_buckets(const T5Params& params, const std::vector<std::int64_t>& distances);

// The per-head bias table (HF relative_attention_bias = nn.Embedding(num_buckets, n_heads)), num_buckets x
// num_heads. With params.bias_path empty, the seeded stand-in: entry (bucket, head) = rng::normal(seed,
// kT5Bias, bucket * num_heads + head) * stddev. Otherwise the trained table t5_trained_bias() reads, whose
// shape validate(params) has checked against num_buckets x num_heads.
Eigen::MatrixXd t5_bias_table(const T5Params& params);

// A trained bias table: HF T5Attention.relative_attention_bias.weight, which only block 0 of the encoder
// and of the decoder hold (T5Stack: has_relative_attention_bias=bool(i == 0)); every layer reuses it.
struct T5TrainedBias {
    Eigen::MatrixXd table; // buckets x heads, the stored values (F16 / BF16 widened exactly)
    std::string tensor;    // the checkpoint tensor read; "" for a .csv or .npy table
    bool decoder = false;  // the decoder's table: trained on causal buckets
};

// Reads a trained T5 bias table from `path`: a .safetensors checkpoint or its model.safetensors.index.json
// (the tensor `tensor`, or with `tensor` empty the encoder's layer-0 relative_attention_bias, else the
// decoder's), or a .csv / .npy of buckets x heads. The tensor must be 2-D with 2 .. 4096 rows (buckets)
// and 1 .. 1024 columns (heads), checked on the header before any value is read. Every problem throws
// LearnedTableError naming the file (an unknown tensor lists the tensors the file has).
T5TrainedBias t5_trained_bias(const std::string& path, const std::string& tensor = "");

// Points params at a trained table and gives them its shape: bias_path = path, bias_tensor = the tensor read,
// num_buckets = rows, num_heads = columns, and for a checkpoint's tensor bidirectional = !decoder. Returns
// the table; LearnedTableError (params unchanged) when the file holds no usable table.
T5TrainedBias t5_use_trained_bias(T5Params& params, const std::string& path, const std::string& tensor = "");

// A model's checkpoint (opened from the Hugging Face cache): when it holds a known T5 bias tensor,
// t5_use_trained_bias(params, checkpoint) and true; otherwise params unchanged and false. A file that
// cannot be read throws LearnedTableError.
bool t5_use_checkpoint_bias(T5Params& params, const std::string& checkpoint);

// table(bucket(key_pos - query_pos), head): the scalar added to the logit of (query_pos, key_pos).
// The table must be num_buckets x num_heads (std::invalid_argument) and head in [0, num_heads)
// (ParameterError "head").
double t5_bias(const Eigen::MatrixXd& table, const T5Params& params, std::int64_t query_pos,
               std::int64_t key_pos, int head);

} // namespace posatlas
