#include "rope_scaling.h"
