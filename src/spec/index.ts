export { loadSpec, type Spec, type Document } from './load.js';
export { listOperations, type Operation, type Parameter, type Response, type Schema, type HttpMethod, type SecurityRequirement } from './operations.js';
export { createAjv } from './ajv.js';
export { createSpecValidator, type SpecValidator, type SchemaError, type ObservedResponse, type ResponseProblem } from './validator.js';
export { errorCatalog, type ErrorCodeEntry } from './error-codes.js';
export { controlApiPath, monitoringApiPath, packageRoot } from './paths.js';
export type * from './types.js';
export { responseSpecView, specDescribesBody, specView } from './spec-view.js';
export { describeRecordProblem, eventRecordProblem, schemaProblem, type RecordProblem } from './record-problem.js';
