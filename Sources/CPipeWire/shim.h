// libpipewire-0.3 and SPA for the PipeWire companion (foldcam-pipewire). Only CPipeWireShim and
// the companion depend on this target, so only they link libpipewire: foldcamd and foldcamctl
// start on machines without it.
#ifndef FOLDCAM_CPIPEWIRE_H
#define FOLDCAM_CPIPEWIRE_H

#include <pipewire/pipewire.h>

#endif
