#include "attention_logits.h"
