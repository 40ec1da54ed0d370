// SPDX-License-Identifier: GPL-3.0-or-later
// The local Hugging Face hub cache, read the way huggingface_hub writes it (file_download.py,
// "cache-system" docs): ROOT/models--ORG--NAME/{refs/REV, blobs/ETAG, snapshots/COMMIT/FILE}. refs/main
// holds the commit hash the branch pointed at when downloaded; snapshots/COMMIT/FILE is a symlink into
// blobs/ (or the file itself on systems without symlinks). PosAtlas only reads it here; the downloader
// (ui/hub/hub_download.*) writes the same layout.
#pragma once

#include "io/input_file.h"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace posatlas {

// A bad model name, or a model or revision not in the cache: the message says what to do.
class HfCacheError : public InputFileError
{
public:
    using InputFileError::InputFileError;
};

// The hub cache folder, as huggingface_hub/constants.py resolves it: $HF_HUB_CACHE, else the legacy
// $HUGGINGFACE_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
// ~/.cache/huggingface/hub. `source` says which one applied (shown in listings and errors).
struct HfCacheRoot {
    std::filesystem::path path;
    std::string source; // "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME", "default"
};
HfCacheRoot hf_cache_root();

// "org/name" or "org/name@revision" (a branch, tag or commit hash; default "main"). Names follow the
// Hub's rules (huggingface_hub validate_repo_id): letters, digits, '-', '_', '.', at most 96 characters per
// part, no "..", no leading or trailing '-' or '.'. A single "name" (legacy models such as "gpt2") is
// accepted too.
struct HfModelRef {
    std::string repo_id;
    std::string revision = "main";
};
HfModelRef parse_hf_model_ref(std::string_view text);
// "models--org--name" (huggingface_hub repo_folder_name).
std::string hf_repo_folder(std::string_view repo_id);

// The file PosAtlas writes when it fetched only the position tensors of a checkpoint: a complete,
// valid safetensors file holding just those tensors (their bytes unchanged), named so that no other
// tool mistakes it for the model's weights (transformers loads model.safetensors or its index).
inline constexpr std::string_view kPartialWeightsFile = "posatlas-positions.safetensors";

struct HfSnapshot {
    std::string commit; // the snapshots/ folder name
    std::filesystem::path dir;
    bool has_config = false;              // config.json
    bool has_index = false;               // model.safetensors.index.json
    std::vector<std::string> safetensors; // *.safetensors files present, sorted (shards may be missing)
    bool has_positions = false;           // kPartialWeightsFile
};

struct HfCachedModel {
    std::string repo_id;                     // "org/name"
    std::filesystem::path dir;               // ROOT/models--org--name
    std::map<std::string, std::string> refs; // refs/<name> -> commit ("main" -> "8b6c...")
    std::vector<HfSnapshot> snapshots;       // sorted by commit
};

// Every models--* folder under `root` with its refs and snapshots, sorted by repo id. A missing root is
// an empty cache; unreadable entries are skipped (a cache is shared with other tools).
std::vector<HfCachedModel> list_hf_cache(const std::filesystem::path& root);

// What `--model org/name[@rev]` opens.
struct HfResolvedModel {
    std::string repo_id;
    std::string commit;
    std::filesystem::path snapshot;
    std::filesystem::path config; // snapshot/config.json
    // The weights to read position tables from, empty when there are none: the sharded index when its
    // shards are all present, else model.safetensors, else the single *.safetensors file, else
    // kPartialWeightsFile.
    std::filesystem::path weights;
};

// Resolves a model in the cache at `root`: revision through refs/<rev>, else a snapshot named <rev>
// (a commit hash). Throws HfCacheError when the model, the revision or its config.json is not cached,
// saying how to download it (`posatlas download org/name`).
HfResolvedModel resolve_hf_model(const std::filesystem::path& root, const HfModelRef& ref);

} // namespace posatlas
