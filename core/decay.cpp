#include "decay.h"
