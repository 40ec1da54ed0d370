#include "rope.h"
