#include "cli_compute.h"
