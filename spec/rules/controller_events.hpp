// ControllerEventManager's consumer (facts §5.11): the controller on a broker takes its next
// event and processes it atomically.
#pragma once

#include "spec/rules/controller.hpp"

namespace kcspec::spec {

// Pops the next event and runs its handler (facts §5.6). A ControllerMovedException abandons
// the event and the controller calls maybeResign (facts §6.3.2).
void processNextEvent(Controller& ctl);

}  // namespace kcspec::spec
