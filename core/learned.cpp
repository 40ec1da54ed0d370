#include "learned.h"
