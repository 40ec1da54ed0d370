#include "sinusoidal.h"
