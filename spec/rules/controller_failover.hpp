// Becoming controller, failover and resignation (kafka.md §5.4).
#pragma once

#include "spec/rules/controller.hpp"

namespace kcspec::spec {

// elect(): wins /controller when it is free, bumps /controller_epoch, runs onControllerFailover.
void elect(Controller& ctl);

// onControllerResignation: the context is reset; the controller is no longer active.
void onControllerResignation(Controller& ctl);

// maybeResign: after ControllerMovedException — resign if /controller no longer names us.
void maybeResign(Controller& ctl);

// triggerControllerMove: after an unexpected error during failover — resign and free /controller.
void triggerControllerMove(Controller& ctl);

}  // namespace kcspec::spec
