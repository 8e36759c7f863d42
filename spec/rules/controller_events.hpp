// ControllerEventManager's consumer (kafka.md §5.11): the controller on a broker takes its next
// event and processes it atomically.
#pragma once

#include "spec/rules/controller.hpp"

namespace kcspec::spec {

// Pops the next event and runs its handler (kafka.md §5.6). A ControllerMovedException abandons
// the event and the controller calls maybeResign (kafka.md §6.3.2).
void processNextEvent(Controller& ctl);

}  // namespace kcspec::spec
