import type { Annotation } from '../../src-shared/domain/annotation.js';
import type { ProjectHandle } from '../../src-shared/tools/handles.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';

/** The annotation with this id, or a refusal that names it (it may have been deleted or undone). */
export function findAnnotation(project: ProjectHandle, id: string): Annotation {
  const found = project.listAnnotations().find((a) => a.id === id);
  if (!found) throw new ToolFailure('invalid_params', `No annotation with id ${id}.`, false);
  return found;
}
