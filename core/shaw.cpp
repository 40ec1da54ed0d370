#include "shaw.h"
