#include "cope.h"
