#include "deberta.h"
