#include "model_config.h"
