#include "presets.h"
