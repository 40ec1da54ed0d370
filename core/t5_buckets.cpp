#include "t5_buckets.h"
