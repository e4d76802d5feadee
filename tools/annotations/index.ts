import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { addAnnotation } from './addAnnotation.js';
import { deleteAnnotation } from './deleteAnnotation.js';
import { listAnnotations } from './listAnnotations.js';
import { moveAnnotation } from './moveAnnotation.js';

/** The annotation layer (issue #14): the model adds and lists; only the person moves and deletes. */
export const annotationTools: readonly ToolDefinition[] = [addAnnotation, listAnnotations, moveAnnotation, deleteAnnotation];
