package openai

// Model is one entry of GET /v1/models.
type Model struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Created int64  `json:"created"`
	OwnedBy string `json:"owned_by"`
}

// ModelList is the body of GET /v1/models. It has no cursor fields: the real
// list never pages.
type ModelList struct {
	Object string  `json:"object"`
	Data   []Model `json:"data"`
}

// catalog lists current model IDs with the creation times the real API
// reports for them.
var catalog = []Model{
	{ID: "gpt-4.1", Created: 1744316542},
	{ID: "gpt-4.1-mini", Created: 1744318173},
	{ID: "gpt-4.1-nano", Created: 1744321707},
	{ID: "gpt-4o", Created: 1715367049},
	{ID: "gpt-4o-mini", Created: 1721172741},
	{ID: "gpt-5", Created: 1754425777},
	{ID: "gpt-5-mini", Created: 1754425928},
	{ID: "gpt-5-nano", Created: 1754426384},
	{ID: "o3", Created: 1744225308},
	{ID: "o4-mini", Created: 1744225351},
	{ID: "text-embedding-3-small", Created: 1705948997},
	{ID: "text-embedding-3-large", Created: 1705953180},
}

// CatalogIDs returns the IDs of every model the server knows, in catalog order.
func CatalogIDs() []string {
	ids := make([]string, len(catalog))
	for i, m := range catalog {
		ids[i] = m.ID
	}
	return ids
}

// Models describes the given model IDs. IDs outside the catalog, such as a
// fine-tune a test names, are described as owned by the organisation.
func Models(ids []string) *ModelList {
	list := &ModelList{Object: "list", Data: make([]Model, 0, len(ids))}
	for _, id := range ids {
		list.Data = append(list.Data, describe(id))
	}
	return list
}

func describe(id string) Model {
	for _, m := range catalog {
		if m.ID == id {
			m.Object, m.OwnedBy = "model", "system"
			return m
		}
	}
	return Model{ID: id, Object: "model", OwnedBy: "organization-owner"}
}
