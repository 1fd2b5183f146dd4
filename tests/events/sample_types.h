/* A header an `Iris.Events` domain names in its "includes", declaring an argument type used by an
   event signature (OnSceneLoaded(const scene_load *) in generated_events_sample.h). */
#ifndef SAMPLE_TYPES_H
#define SAMPLE_TYPES_H

typedef struct scene_load {
    const char *scene;
    int additive;
} scene_load;

#endif
