#include "transformer_xl.h"
